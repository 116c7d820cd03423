package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void writesNestedObjectsAndArraysWithCommasInPlace() {
    String s = new Json().beginArray()
        .beginObject().field("a", 1).field("b", "x").name("c").beginArray().value(true)
        .value((String) null).endArray().endObject()
        .beginObject().endObject()
        .endArray().toString();
    assertThat(s).isEqualTo("[{\"a\":1,\"b\":\"x\",\"c\":[true,null]},{}]");
  }

  @Test
  void escapesWhatJsonAndAnHtmlScriptElementNeed() {
    String s = new Json().value("q\"b\\n\n\t\u0001</script>&\u2028").toString();
    assertThat(s).isEqualTo(
        "\"q\\\"b\\\\n\\n\\t\\u0001\\u003c/script\\u003e\\u0026\\u2028\"");
  }

  @Test
  void escapesLoneSurrogatesButKeepsPairs() {
    assertThat(new Json().value("\ud83d\ude00").toString()).isEqualTo("\"\ud83d\ude00\"");
    assertThat(new Json().value("a\ud83db").toString()).isEqualTo("\"a\\ud83db\"");
    assertThat(new Json().value("\ude00").toString()).isEqualTo("\"\\ude00\"");
  }
}
