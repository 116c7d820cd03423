package dev.wsjava.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * RFC 6455 §8.1 text validation: checks that the bytes of a text message are UTF-8 as RFC 3629
 * defines it, incrementally, across reads and fragments.
 *
 * <p>Rejected, at the first byte that cannot be part of a valid sequence: unexpected continuation
 * bytes; lead bytes C0, C1 and F5-FF; overlong forms (E0 followed by 80-9F, F0 followed by 80-8F);
 * UTF-16 surrogates (ED followed by A0-BF); code points above U+10FFFF (F4 followed by 90-BF); and a
 * sequence cut short by a byte that is not a continuation. A sequence cut short by the end of the
 * message is found by {@link #isComplete()} returning false at the end of the message.
 *
 * <p>How it works: a deterministic automaton with nine states, stored so that one step is one table
 * load (independent of the state) and one shift: entry {@code b} of the table is a {@code long}
 * holding, for every state, the 6-bit offset of the next state after byte {@code b}; the current
 * state is the offset of its field. Bytes are read as 8-byte words; the error state is a sink, so a
 * word is checked once after its eight steps, and only a failed word is walked again to find the
 * offending byte. Between code points, a word with no high bit set is ASCII and skips the automaton;
 * runs of ASCII are skipped 64 bytes per step in arrays, 8 in other buffers.
 *
 * <p>A code point may be split across calls. After a failure the validator stays failed until
 * {@link #reset()}. Not thread-safe: one instance per connection, used by the thread that reads it.
 */
public final class Utf8Validator {
  // State offsets (bit positions of each state's field in a transition word).
  private static final int ERROR = 0; // a sink: every byte keeps it in ERROR
  private static final int ACCEPT = 6; // between code points
  private static final int TAIL1 = 12; // one continuation byte (80-BF) to go
  private static final int TAIL2 = 18; // two to go
  private static final int TAIL3 = 24; // three to go
  private static final int AFTER_E0 = 30; // next must be A0-BF (no overlong 3-byte form)
  private static final int AFTER_ED = 36; // next must be 80-9F (no surrogates)
  private static final int AFTER_F0 = 42; // next must be 90-BF (no overlong 4-byte form)
  private static final int AFTER_F4 = 48; // next must be 80-8F (nothing above U+10FFFF)

  /** For each byte value, the next state of every state, each in that state's 6-bit field. */
  private static final long[] STEP = buildTable();

  private static final boolean BIG_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;
  private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
  private static final VarHandle ARRAY_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final VarHandle BUFFER_LONG =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private int state = ACCEPT;

  /** Creates a validator at the start of a message. */
  public Utf8Validator() {}

  private static long[] buildTable() {
    long[] table = new long[256];
    for (int b = 0; b < 256; b++) {
      long word = 0; // every state not set below goes to ERROR (offset 0)
      if (b <= 0x7F) {
        word |= edge(ACCEPT, ACCEPT);
      } else if (b <= 0xBF) { // continuation byte
        word |= edge(TAIL1, ACCEPT) | edge(TAIL2, TAIL1) | edge(TAIL3, TAIL2);
        if (b >= 0xA0) {
          word |= edge(AFTER_E0, TAIL1);
        } else {
          word |= edge(AFTER_ED, TAIL1);
        }
        if (b >= 0x90) {
          word |= edge(AFTER_F0, TAIL2);
        } else {
          word |= edge(AFTER_F4, TAIL2);
        }
      } else if (b >= 0xC2 && b <= 0xDF) {
        word |= edge(ACCEPT, TAIL1);
      } else if (b == 0xE0) {
        word |= edge(ACCEPT, AFTER_E0);
      } else if (b == 0xED) {
        word |= edge(ACCEPT, AFTER_ED);
      } else if (b >= 0xE1 && b <= 0xEF) {
        word |= edge(ACCEPT, TAIL2);
      } else if (b == 0xF0) {
        word |= edge(ACCEPT, AFTER_F0);
      } else if (b == 0xF4) {
        word |= edge(ACCEPT, AFTER_F4);
      } else if (b >= 0xF1 && b <= 0xF3) {
        word |= edge(ACCEPT, TAIL3);
      }
      // C0, C1 and F5-FF never start a sequence: ERROR from every state.
      table[b] = word;
    }
    return table;
  }

  private static long edge(int from, int to) {
    return (long) to << from;
  }

  /**
   * Validates the bytes of {@code buf} from its position to its limit, going on from the state the
   * previous calls left.
   *
   * <p>The buffer's position, limit and byte order are left as they are.
   *
   * @param buf the next bytes of the message
   * @return -1 when every byte so far is valid (possibly inside a code point that continues in the
   *     next call), else the absolute index in {@code buf} of the first byte that cannot be part of
   *     valid UTF-8; when the validator had already failed, {@code buf.position()}
   */
  public int validate(ByteBuffer buf) {
    int from = buf.position();
    int to = buf.limit();
    if (state == ERROR) {
      return from;
    }
    int result;
    if (buf.hasArray()) {
      int base = buf.arrayOffset();
      result = run(state, buf.array(), base + from, base + to);
      if (result >= 0) {
        result -= base;
      }
    } else {
      result = run(state, buf, from, to);
    }
    return settle(result);
  }

  /**
   * Validates {@code a[from, to)}, going on from the state the previous calls left.
   *
   * @param a the array holding the next bytes of the message
   * @param from index of the first byte
   * @param to index after the last byte
   * @return -1 when every byte so far is valid (possibly inside a code point that continues in the
   *     next call), else the index in {@code a} of the first byte that cannot be part of valid
   *     UTF-8; when the validator had already failed, {@code from}
   * @throws IndexOutOfBoundsException if the range is not within the array
   */
  public int validate(byte[] a, int from, int to) {
    Objects.checkFromToIndex(from, to, a.length);
    if (state == ERROR) {
      return from;
    }
    return settle(run(state, a, from, to));
  }

  /** Stores the state a run ended in and turns the run's result into validate's answer. */
  private int settle(int result) {
    if (result >= 0) {
      state = ERROR;
      return result;
    }
    state = ~result;
    return -1;
  }

  /**
   * Returns whether the bytes so far form whole code points with no error: true at the end of a
   * valid message.
   *
   * @return false when inside a code point or after a failure
   */
  public boolean isComplete() {
    return state == ACCEPT;
  }

  /**
   * Returns whether an invalid byte has been seen since the last {@link #reset()}.
   *
   * @return true once {@code validate} has reported an invalid byte
   */
  public boolean hasFailed() {
    return state == ERROR;
  }

  /** Forgets all bytes seen, for the next message. */
  public void reset() {
    state = ACCEPT;
  }

  /**
   * Checks a whole sequence at once.
   *
   * @param buf the bytes from position to limit are checked; position and limit are left alone
   * @return true when the bytes are complete, valid UTF-8
   */
  public static boolean isValid(ByteBuffer buf) {
    int from = buf.position();
    int to = buf.limit();
    int result;
    if (buf.hasArray()) {
      int base = buf.arrayOffset();
      result = run(ACCEPT, buf.array(), base + from, base + to);
    } else {
      result = run(ACCEPT, buf, from, to);
    }
    return result == ~ACCEPT;
  }

  /**
   * Checks a whole sequence at once.
   *
   * @param a the array holding the bytes
   * @param from index of the first byte
   * @param to index after the last byte
   * @return true when {@code a[from, to)} is complete, valid UTF-8
   * @throws IndexOutOfBoundsException if the range is not within the array
   */
  public static boolean isValid(byte[] a, int from, int to) {
    Objects.checkFromToIndex(from, to, a.length);
    return run(ACCEPT, a, from, to) == ~ACCEPT;
  }

  /**
   * Runs the automaton over {@code a[from, to)} from {@code start} (not ERROR).
   *
   * @return the index of the first invalid byte, or {@code ~state} (negative) for the state after
   *     the last byte when all are valid
   */
  private static int run(int start, byte[] a, int from, int to) {
    long s = start;
    int i = from;
    int lastWord = to - 8;
    while (i <= lastWord) {
      if (s == ACCEPT && ((long) ARRAY_LONG.get(a, i) & HIGH_BITS) == 0) {
        // A run of ASCII: 64 bytes per step, then 8, up to the word that has a high bit.
        i += 8;
        for (int last = to - 64; i <= last; i += 64) {
          long v =
              (long) ARRAY_LONG.get(a, i)
                  | (long) ARRAY_LONG.get(a, i + 8)
                  | (long) ARRAY_LONG.get(a, i + 16)
                  | (long) ARRAY_LONG.get(a, i + 24)
                  | (long) ARRAY_LONG.get(a, i + 32)
                  | (long) ARRAY_LONG.get(a, i + 40)
                  | (long) ARRAY_LONG.get(a, i + 48)
                  | (long) ARRAY_LONG.get(a, i + 56);
          if ((v & HIGH_BITS) != 0) {
            break;
          }
        }
        while (i <= lastWord && ((long) ARRAY_LONG.get(a, i) & HIGH_BITS) == 0) {
          i += 8;
        }
        continue;
      }
      // Eight steps. The shift distance of a long is taken mod 64, so only the low six bits of
      // the state matter and the bits above them need no masking between steps.
      long t = s;
      t = STEP[a[i] & 0xFF] >>> t;
      t = STEP[a[i + 1] & 0xFF] >>> t;
      t = STEP[a[i + 2] & 0xFF] >>> t;
      t = STEP[a[i + 3] & 0xFF] >>> t;
      t = STEP[a[i + 4] & 0xFF] >>> t;
      t = STEP[a[i + 5] & 0xFF] >>> t;
      t = STEP[a[i + 6] & 0xFF] >>> t;
      t = STEP[a[i + 7] & 0xFF] >>> t;
      t &= 63;
      if (t == ERROR) {
        return locate(s, a, i);
      }
      s = t;
      i += 8;
    }
    if (i < to && s == ACCEPT && to - from >= 8) {
      // An ASCII tail of a message of 8 bytes or more: test the last word, already checked
      // bytes masked off, instead of stepping through up to 7 bytes.
      long tailBits = HIGH_BITS & lastBytes(to - i);
      if (((long) ARRAY_LONG.get(a, to - 8) & tailBits) == 0) {
        return ~ACCEPT;
      }
    }
    for (; i < to; i++) {
      s = (STEP[a[i] & 0xFF] >>> s) & 63;
      if (s == ERROR) {
        return i;
      }
    }
    return ~(int) s;
  }

  /** Walks a word that ended in ERROR again, one byte at a time, to find the failing byte. */
  private static int locate(long s, byte[] a, int from) {
    for (int i = from; ; i++) {
      s = (STEP[a[i] & 0xFF] >>> s) & 63;
      if (s == ERROR) {
        return i;
      }
    }
  }

  /** {@link #run(int, byte[], int, int)} for buffers without an accessible array. */
  private static int run(int start, ByteBuffer buf, int from, int to) {
    long s = start;
    int i = from;
    int lastWord = to - 8;
    while (i <= lastWord) {
      long w = (long) BUFFER_LONG.get(buf, i);
      if (s == ACCEPT && (w & HIGH_BITS) == 0) {
        // Eight bytes per step: a 64-byte step measured several times slower on direct buffers.
        i += 8;
        while (i <= lastWord && ((long) BUFFER_LONG.get(buf, i) & HIGH_BITS) == 0) {
          i += 8;
        }
        continue;
      }
      long t = step8(s, w);
      if (t == ERROR) {
        for (int j = i; ; j++) {
          s = (STEP[buf.get(j) & 0xFF] >>> s) & 63;
          if (s == ERROR) {
            return j;
          }
        }
      }
      s = t;
      i += 8;
    }
    for (; i < to; i++) {
      s = (STEP[buf.get(i) & 0xFF] >>> s) & 63;
      if (s == ERROR) {
        return i;
      }
    }
    return ~(int) s;
  }

  /** Selects the last {@code n} (1-7) bytes in memory of a word read in native order. */
  private static long lastBytes(int n) {
    int unwanted = 8 * (8 - n);
    return BIG_ENDIAN ? -1L >>> unwanted : -1L << unwanted;
  }

  /**
   * Runs the eight bytes of a word, as read in native order from memory, through the automaton.
   * The shift distance of a {@code long} is taken mod 64, so only the low six bits of the state
   * matter and the bits above them need no masking between steps.
   */
  private static long step8(long s, long w) {
    long bytes = BIG_ENDIAN ? Long.reverseBytes(w) : w; // first byte in memory now lowest
    s = STEP[(int) bytes & 0xFF] >>> s;
    s = STEP[(int) (bytes >>> 8) & 0xFF] >>> s;
    s = STEP[(int) (bytes >>> 16) & 0xFF] >>> s;
    s = STEP[(int) (bytes >>> 24) & 0xFF] >>> s;
    s = STEP[(int) (bytes >>> 32) & 0xFF] >>> s;
    s = STEP[(int) (bytes >>> 40) & 0xFF] >>> s;
    s = STEP[(int) (bytes >>> 48) & 0xFF] >>> s;
    s = STEP[(int) (bytes >>> 56)] >>> s;
    return s & 63;
  }
}
