package dev.wsjava.jakarta.internal;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Decoder;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;
import java.io.InputStream;
import java.io.Reader;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An annotated endpoint class, scanned and checked once at deployment (Jakarta WebSocket 2.2
 * §4): its {@code @OnOpen}, {@code @OnClose}, {@code @OnError} and {@code @OnMessage} methods,
 * each resolved to one {@link MethodHandle} of the uniform type {@code (Object endpoint, JSession
 * session, Object argument, boolean last) Object}, so a message costs one {@code invokeExact} and no
 * reflection. Immutable and thread-safe.
 */
final class EndpointModel {
  /** The uniform type every handle is adapted to. */
  static final MethodType UNIFORM =
      MethodType.methodType(Object.class, Object.class, JSession.class, Object.class, boolean.class);

  private static final MethodHandle PATH_PARAM;
  private static final MethodHandle CONFIG;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      PATH_PARAM =
          l.findStatic(
              EndpointModel.class,
              "pathParam",
              MethodType.methodType(Object.class, JSession.class, String.class, Class.class));
      CONFIG =
          l.findStatic(
              EndpointModel.class,
              "config",
              MethodType.methodType(EndpointConfig.class, JSession.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** An {@code @OnMessage} method: its raw form, its decoders and its handle. */
  record MessageMethod(
      Sink.Raw raw,
      MethodHandle handle,
      long maxMessageSize,
      List<Class<? extends Decoder>> decoders,
      Class<?> primitive,
      Method method) {}

  final Class<?> type;
  final MethodHandle onOpen;
  final MethodHandle onClose;
  final MethodHandle onError;
  final MessageMethod text;
  final MessageMethod binary;
  final MessageMethod pong;

  private EndpointModel(
      Class<?> type,
      MethodHandle onOpen,
      MethodHandle onClose,
      MethodHandle onError,
      MessageMethod text,
      MessageMethod binary,
      MessageMethod pong) {
    this.type = type;
    this.onOpen = onOpen;
    this.onClose = onClose;
    this.onError = onError;
    this.text = text;
    this.binary = binary;
    this.pong = pong;
  }

  /** Whether a message of this endpoint is read as a stream or in parts. */
  boolean streams() {
    return text != null && (text.raw.stream || text.raw.partial || streamDecoder(text))
        || binary != null && (binary.raw.stream || binary.raw.partial || streamDecoder(binary));
  }

  private static boolean streamDecoder(MessageMethod m) {
    return m.raw == Sink.Raw.READER || m.raw == Sink.Raw.INPUT_STREAM;
  }

  /**
   * Scans an annotated endpoint class.
   *
   * @param type the class
   * @param decoders the decoders its annotation names
   * @return the model
   * @throws DeploymentException when a method breaks the rules of §4
   */
  static EndpointModel scan(Class<?> type, List<Codecs.DecoderType> decoders)
      throws DeploymentException {
    if (!Modifier.isPublic(type.getModifiers())) {
      throw new DeploymentException("endpoint class " + type.getName() + " must be public");
    }
    if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
      throw new DeploymentException("endpoint class " + type.getName() + " must be concrete");
    }
    MethodHandle open = null;
    MethodHandle close = null;
    MethodHandle error = null;
    MessageMethod text = null;
    MessageMethod binary = null;
    MessageMethod pong = null;
    for (Method m : methods(type)) {
      if (m.isAnnotationPresent(OnOpen.class)) {
        open = once(open, m, OnOpen.class, lifecycle(m, EndpointConfig.class, false));
      }
      if (m.isAnnotationPresent(OnClose.class)) {
        close = once(close, m, OnClose.class, lifecycle(m, CloseReason.class, false));
      }
      if (m.isAnnotationPresent(OnError.class)) {
        error = once(error, m, OnError.class, lifecycle(m, Throwable.class, true));
      }
      OnMessage on = m.getAnnotation(OnMessage.class);
      if (on != null) {
        MessageMethod mm = message(m, on, decoders);
        if (mm.raw == Sink.Raw.PONG) {
          pong = onlyOne(pong, mm, "pong");
        } else if (mm.raw.text) {
          text = onlyOne(text, mm, "text");
        } else {
          binary = onlyOne(binary, mm, "binary");
        }
      }
    }
    return new EndpointModel(type, open, close, error, text, binary, pong);
  }

  /** Public methods of the class and its superclasses, the most derived first, each name once. */
  private static List<Method> methods(Class<?> type) {
    List<Method> out = new ArrayList<>();
    Set<String> seen = new java.util.HashSet<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.isBridge() || m.isSynthetic()) {
          continue;
        }
        boolean annotated =
            m.isAnnotationPresent(OnOpen.class)
                || m.isAnnotationPresent(OnClose.class)
                || m.isAnnotationPresent(OnError.class)
                || m.isAnnotationPresent(OnMessage.class);
        String signature = m.getName() + java.util.Arrays.toString(m.getParameterTypes());
        if (!seen.add(signature) || !annotated) {
          continue; // overridden in a subclass, or not ours
        }
        out.add(m);
      }
    }
    return out;
  }

  private static MethodHandle once(
      MethodHandle before, Method m, Class<? extends Annotation> a, MethodHandle h)
      throws DeploymentException {
    if (before != null) {
      throw new DeploymentException(
          m.getDeclaringClass().getName() + " has more than one @" + a.getSimpleName() + " method");
    }
    return h;
  }

  private static MessageMethod onlyOne(MessageMethod before, MessageMethod m, String kind)
      throws DeploymentException {
    if (before != null) {
      throw new DeploymentException(
          m.method.getDeclaringClass().getName()
              + " has two @OnMessage methods for "
              + kind
              + " messages: "
              + before.method.getName()
              + " and "
              + m.method.getName());
    }
    return m;
  }

  /** @OnOpen (EndpointConfig), @OnClose (CloseReason), @OnError (Throwable, required). */
  private static MethodHandle lifecycle(Method m, Class<?> argument, boolean required)
      throws DeploymentException {
    checkPublic(m);
    Parameter[] ps = m.getParameters();
    MethodHandle[] getters = new MethodHandle[ps.length];
    boolean seenArgument = false;
    boolean seenSession = false;
    for (int i = 0; i < ps.length; i++) {
      Class<?> p = ps[i].getType();
      PathParam path = ps[i].getAnnotation(PathParam.class);
      if (path != null) {
        getters[i] = pathParamGetter(m, path, p);
      } else if (p == Session.class && !seenSession) {
        seenSession = true;
        getters[i] = sessionGetter();
      } else if (argument.isAssignableFrom(p) && !seenArgument && p != Object.class) {
        seenArgument = true;
        getters[i] = argumentGetter(p);
      } else if (argument == EndpointConfig.class && p == EndpointConfig.class && !seenArgument) {
        seenArgument = true;
        getters[i] = configGetter();
      } else {
        throw new DeploymentException(bad(m, ps[i], "a " + annotationName(argument) + " method takes "
            + "Session, " + argument.getSimpleName() + " and @PathParam parameters only"));
      }
    }
    if (required && !seenArgument) {
      throw new DeploymentException(bad(m, null, "an @OnError method needs a Throwable parameter"));
    }
    return uniform(m, getters);
  }

  private static String annotationName(Class<?> argument) {
    return argument == Throwable.class ? "@OnError" : argument == CloseReason.class ? "@OnClose" : "@OnOpen";
  }

  private static MessageMethod message(Method m, OnMessage on, List<Codecs.DecoderType> decoders)
      throws DeploymentException {
    checkPublic(m);
    Parameter[] ps = m.getParameters();
    MethodHandle[] getters = new MethodHandle[ps.length];
    int messageIndex = -1;
    int lastIndex = -1;
    boolean seenSession = false;
    Sink.Raw raw = null;
    Class<?> primitive = null;
    List<Class<? extends Decoder>> chosen = List.of();
    for (int i = 0; i < ps.length; i++) {
      Class<?> p = ps[i].getType();
      PathParam path = ps[i].getAnnotation(PathParam.class);
      if (path != null) {
        getters[i] = pathParamGetter(m, path, p);
        continue;
      }
      if (p == Session.class && !seenSession) {
        seenSession = true;
        getters[i] = sessionGetter();
        continue;
      }
      if (p == boolean.class && lastIndex < 0 && messageIndex >= 0 && canBePartial(ps[messageIndex].getType())) {
        lastIndex = i;
        getters[i] = lastGetter();
        continue;
      }
      if (messageIndex >= 0) {
        throw new DeploymentException(bad(m, ps[i], "an @OnMessage method takes one message parameter"
            + " (and optionally Session, a boolean 'last' after a String, byte[] or ByteBuffer, and"
            + " @PathParam parameters)"));
      }
      messageIndex = i;
      getters[i] = argumentGetter(p);
      if (p == String.class) {
        raw = Sink.Raw.STRING;
      } else if (p == Reader.class) {
        raw = Sink.Raw.READER;
      } else if (p == byte[].class) {
        raw = Sink.Raw.BYTES;
      } else if (p == ByteBuffer.class) {
        raw = Sink.Raw.BUFFER;
      } else if (p == InputStream.class) {
        raw = Sink.Raw.INPUT_STREAM;
      } else if (p == PongMessage.class) {
        raw = Sink.Raw.PONG;
      } else if (Sink.isPrimitiveOrBox(p)) {
        raw = Sink.Raw.STRING;
        primitive = p;
      } else {
        List<Class<? extends Decoder>> fit = new ArrayList<>();
        Codecs.DecoderType first = null;
        for (Codecs.DecoderType d : decoders) {
          if (p.isAssignableFrom(d.target()) || d.target() == Object.class) {
            if (first == null) {
              first = d;
            }
            if (d.form() == first.form()) {
              fit.add(d.type());
            }
          }
        }
        if (first == null) {
          throw new DeploymentException(bad(m, ps[i], "no decoder makes a " + p.getName()
              + " (list one in the endpoint's decoders)"));
        }
        chosen = List.copyOf(fit);
        raw = switch (first.form()) {
          case TEXT -> Sink.Raw.STRING;
          case TEXT_STREAM -> Sink.Raw.READER;
          case BINARY -> Sink.Raw.BUFFER;
          case BINARY_STREAM -> Sink.Raw.INPUT_STREAM;
        };
      }
    }
    if (raw == null) {
      throw new DeploymentException(bad(m, null, "an @OnMessage method needs a message parameter"));
    }
    if (lastIndex >= 0) {
      raw = switch (raw) {
        case STRING -> Sink.Raw.STRING_PARTIAL;
        case BYTES -> Sink.Raw.BYTES_PARTIAL;
        case BUFFER -> Sink.Raw.BUFFER_PARTIAL;
        default -> raw;
      };
      if (primitive != null || !chosen.isEmpty()) {
        throw new DeploymentException(bad(m, null, "only String, byte[] and ByteBuffer messages come in parts"));
      }
    }
    if (raw == Sink.Raw.PONG && m.getReturnType() != void.class) {
      throw new DeploymentException(bad(m, null, "a pong handler returns nothing"));
    }
    return new MessageMethod(raw, uniform(m, getters), on.maxMessageSize(), chosen, primitive, m);
  }

  private static boolean canBePartial(Class<?> message) {
    return message == String.class || message == byte[].class || message == ByteBuffer.class;
  }

  private static void checkPublic(Method m) throws DeploymentException {
    if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers())) {
      throw new DeploymentException(bad(m, null, "an endpoint method must be public and not static"));
    }
  }

  private static String bad(Method m, Parameter p, String rule) {
    return m.getDeclaringClass().getName() + "." + m.getName()
        + (p == null ? "" : " (parameter " + p.getType().getSimpleName() + ")") + ": " + rule;
  }

  // -----------------------------------------------------------------------------------------
  // Handles: each parameter from (JSession session, Object argument, boolean last)

  private static MethodHandle argumentGetter(Class<?> type) {
    MethodHandle id = MethodHandles.identity(Object.class).asType(MethodType.methodType(type, Object.class));
    return MethodHandles.dropArguments(
        MethodHandles.dropArguments(id, 0, JSession.class), 2, boolean.class);
  }

  private static MethodHandle sessionGetter() {
    MethodHandle id =
        MethodHandles.identity(JSession.class).asType(MethodType.methodType(Session.class, JSession.class));
    return MethodHandles.dropArguments(id, 1, Object.class, boolean.class);
  }

  private static MethodHandle configGetter() {
    return MethodHandles.dropArguments(CONFIG, 1, Object.class, boolean.class);
  }

  private static MethodHandle lastGetter() {
    return MethodHandles.dropArguments(
        MethodHandles.identity(boolean.class), 0, JSession.class, Object.class);
  }

  private static MethodHandle pathParamGetter(Method m, PathParam path, Class<?> type)
      throws DeploymentException {
    if (type != String.class && !Sink.isPrimitiveOrBox(type)) {
      throw new DeploymentException(bad(m, null, "a @PathParam is a String or a primitive: "
          + type.getName()));
    }
    Class<?> box = type.isPrimitive() ? MethodType.methodType(type).wrap().returnType() : type;
    MethodHandle h = MethodHandles.insertArguments(PATH_PARAM, 1, path.value(), type);
    h = h.asType(MethodType.methodType(box, JSession.class));
    if (type.isPrimitive()) {
      h = h.asType(MethodType.methodType(type, JSession.class));
    }
    return MethodHandles.dropArguments(h, 1, Object.class, boolean.class);
  }

  /** Adapts the method to {@link #UNIFORM} given one getter per parameter. */
  private static MethodHandle uniform(Method m, MethodHandle[] getters) throws DeploymentException {
    MethodHandle target;
    try {
      m.trySetAccessible();
      target = MethodHandles.lookup().unreflect(m);
    } catch (IllegalAccessException e) {
      throw new DeploymentException(bad(m, null, "not accessible (is its package open to"
          + " dev.wsjava.jakarta?)"), e);
    }
    target = target.asType(target.type().changeParameterType(0, Object.class));
    int n = getters.length;
    if (n == 0) {
      target = MethodHandles.dropArguments(target, 1, JSession.class, Object.class, boolean.class);
    } else {
      for (int i = n - 1; i >= 0; i--) {
        target = MethodHandles.collectArguments(target, i + 1, getters[i]);
      }
      int[] reorder = new int[1 + 3 * n];
      for (int i = 0; i < n; i++) {
        reorder[1 + 3 * i] = 1;
        reorder[2 + 3 * i] = 2;
        reorder[3 + 3 * i] = 3;
      }
      target =
          MethodHandles.permuteArguments(
              target, UNIFORM.changeReturnType(target.type().returnType()), reorder);
    }
    return target.asType(UNIFORM);
  }

  /**
   * A path parameter of the session, converted to the parameter's type; a segment that does not
   * convert is a DecodeException (§4.3), which the method handle passes on unchecked.
   */
  static Object pathParam(JSession s, String name, Class<?> type) throws jakarta.websocket.DecodeException {
    String value = s.getPathParameters().get(name);
    if (value == null || type == String.class) {
      if (value == null && type.isPrimitive()) {
        throw new IllegalArgumentException("no path parameter '" + name + "' for a " + type);
      }
      return value;
    }
    try {
      return Sink.parsePrimitive(type, value);
    } catch (jakarta.websocket.DecodeException e) {
      throw new jakarta.websocket.DecodeException(
          value, "path parameter '" + name + "' is not a " + type.getSimpleName(), e.getCause());
    }
  }

  static EndpointConfig config(JSession s) {
    return s.endpointConfig();
  }
}
