package dev.wsjava.jakarta.internal;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;

/** Finds the type argument a class gives a generic interface (a decoder's or handler's T). */
final class Generics {
  private Generics() {}

  /**
   * Returns the class {@code impl} gives the single type parameter of {@code iface}.
   *
   * @return the class, or {@code Object.class} when it cannot be told (a lambda, a raw type)
   */
  static Class<?> typeArgument(Class<?> impl, Class<?> iface) {
    Type t = find(impl, iface);
    return t == null ? Object.class : raw(t);
  }

  private static Type find(Type type, Class<?> iface) {
    Class<?> c = raw(type);
    if (c == null) {
      return null;
    }
    for (Type i : c.getGenericInterfaces()) {
      if (i instanceof ParameterizedType p && p.getRawType() == iface) {
        return resolve(p.getActualTypeArguments()[0], type);
      }
      Type deeper = find(i, iface);
      if (deeper != null) {
        return resolve(deeper, type);
      }
    }
    Type sup = c.getGenericSuperclass();
    if (sup != null && sup != Object.class) {
      Type deeper = find(sup, iface);
      if (deeper != null) {
        return resolve(deeper, type);
      }
    }
    return null;
  }

  /** Resolves a type variable of {@code owner}'s class against {@code owner}'s arguments. */
  private static Type resolve(Type t, Type owner) {
    if (t instanceof TypeVariable<?> v && owner instanceof ParameterizedType p) {
      TypeVariable<?>[] vars = ((Class<?>) p.getRawType()).getTypeParameters();
      for (int i = 0; i < vars.length; i++) {
        if (vars[i].getName().equals(v.getName())) {
          return p.getActualTypeArguments()[i];
        }
      }
    }
    return t;
  }

  private static Class<?> raw(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    if (t instanceof java.lang.reflect.GenericArrayType g) {
      Class<?> component = raw(g.getGenericComponentType());
      return component == null ? null : component.arrayType();
    }
    return null;
  }
}
