package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ServerProcessTest {

  @Test
  void heapInUseAddsTheGenerationsOfTheParallelCollector() throws IOException {
    String parallel = """
        12345:
         PSYoungGen      total 305664K, used 5243K [0x00000000eab00000, 0x0000000100000000, 0x0000000100000000)
          eden space 262144K, 2% used [0x00000000eab00000,0x00000000eb01ecd8,0x00000000fab00000)
          from space 43520K, 0% used [0x00000000fd580000,0x00000000fd580000,0x0000000100000000)
          to   space 43520K, 0% used [0x00000000fab00000,0x00000000fab00000,0x00000000fd580000)
         ParOldGen       total 699392K, used 1200K [0x00000000c0000000, 0x00000000eab00000, 0x00000000eab00000)
          object space 699392K, 0% used [0x00000000c0000000,0x00000000c012c000,0x00000000eab00000)
         Metaspace       used 6208K, committed 6400K, reserved 1114112K
          class space    used 512K, committed 640K, reserved 1048576K
        """;
    assertThat(ServerProcess.heapUsedKib(parallel)).isEqualTo(6443);
  }

  @Test
  void heapInUseReadsG1sSingleLine() throws IOException {
    String g1 = """
        4242:
         garbage-first heap   total 1048576K, used 20480K [0x00000000c0000000, 0x0000000100000000)
          region size 1024K, 3 young (3072K), 0 survivors (0K)
         Metaspace       used 6208K, committed 6400K, reserved 1114112K
        """;
    assertThat(ServerProcess.heapUsedKib(g1)).isEqualTo(20480);
  }

  @Test
  void outputWithoutHeapFiguresIsAnError() {
    assertThatThrownBy(() -> ServerProcess.heapUsedKib("12345:\nAttach failed\n"))
        .isInstanceOf(IOException.class).hasMessageContaining("no heap figures");
  }
}
