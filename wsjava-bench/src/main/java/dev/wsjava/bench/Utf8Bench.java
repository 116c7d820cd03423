package dev.wsjava.bench;

import dev.wsjava.protocol.Utf8Validator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** UTF-8 validation of 1 MiB, beside the JDK's decoder and a plain copy of the same bytes. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class Utf8Bench {
  byte[] ascii;
  byte[] mixed;
  byte[] copyTarget;
  ByteBuffer asciiBuffer;
  ByteBuffer mixedBuffer;
  Utf8Validator validator;

  @Setup
  public void setup() {
    ascii = Payloads.ascii(Payloads.MIB);
    mixed = Payloads.mixedUtf8(Payloads.MIB);
    copyTarget = new byte[Payloads.MIB];
    asciiBuffer = ByteBuffer.wrap(ascii);
    mixedBuffer = ByteBuffer.wrap(mixed);
    validator = new Utf8Validator();
  }

  @Benchmark
  public byte[] arraycopyAscii1MiB() {
    System.arraycopy(ascii, 0, copyTarget, 0, ascii.length);
    return copyTarget;
  }

  @Benchmark
  public int validateAscii1MiB() {
    validator.reset();
    return validator.validate(asciiBuffer);
  }

  @Benchmark
  public String jdkDecodeAscii1MiB() {
    return new String(ascii, StandardCharsets.UTF_8);
  }

  @Benchmark
  public int validateMixed1MiB() {
    validator.reset();
    return validator.validate(mixedBuffer);
  }

  @Benchmark
  public String jdkDecodeMixed1MiB() {
    return new String(mixed, StandardCharsets.UTF_8);
  }
}
