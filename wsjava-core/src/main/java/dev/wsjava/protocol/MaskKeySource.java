package dev.wsjava.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * RFC 6455 §5.3 masking keys: a fresh, unpredictable 32-bit key for every frame a client sends.
 *
 * <p>The RFC requires that a server (or a proxy in between) cannot predict the next key from the
 * keys it has seen, so keys come from a cryptographically strong generator: by default a {@code
 * DRBG} {@link SecureRandom} instance of this source's own, seeded by the JDK from the system's
 * entropy. Keys are drawn from it in batches of {@value #BATCH_KEYS} to keep the cost per frame to a
 * few instructions.
 *
 * <p>One instance per client connection. Not thread-safe: call it only from the thread that encodes
 * that connection's frames.
 */
public final class MaskKeySource {
  private static final int BATCH_KEYS = 16;
  private static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  private final SecureRandom random;
  private final byte[] batch = new byte[BATCH_KEYS * Integer.BYTES];
  private int next = batch.length;

  /**
   * Creates a source backed by a new {@code DRBG} instance of {@link SecureRandom} (or the
   * platform's default strong generator when DRBG is not available).
   */
  public MaskKeySource() {
    this(newGenerator());
  }

  /**
   * Creates a source backed by the given generator, for a caller that manages its own.
   *
   * @param random a cryptographically strong generator; this source calls it from one thread only
   *     but does not own it
   */
  public MaskKeySource(SecureRandom random) {
    this.random = Objects.requireNonNull(random, "random");
  }

  private static SecureRandom newGenerator() {
    try {
      return SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      return new SecureRandom();
    }
  }

  /**
   * Returns the masking key for the next frame.
   *
   * @return four unpredictable bytes as a big-endian int, in the form {@link Masking#mask(byte[],
   *     int, int, int, int)} takes (key byte 0, first on the wire, is {@code key >>> 24})
   */
  public int nextKey() {
    if (next == batch.length) {
      random.nextBytes(batch);
      next = 0;
    }
    int key = (int) INT_BE.get(batch, next);
    next += Integer.BYTES;
    return key;
  }
}
