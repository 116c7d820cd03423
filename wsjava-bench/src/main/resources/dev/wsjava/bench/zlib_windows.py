"""zlib at a window of 2^N bytes on a payload set, as DeflateWindows measures the others.

Usage: zlib_windows.py FILE N LEVEL RESET PASSES
FILE holds the messages, each a 4-byte big-endian length and the bytes. Every message is
compressed as RFC 7692 §7.2.1 says (sync flush, 00 00 ff ff removed); RESET 1 starts a fresh
compressor per message (no context takeover). One line per pass: compressed bytes, input bytes,
CPU seconds (time.process_time) around the compression calls alone.
"""
import struct
import sys
import time
import zlib


def main():
    path, bits, level, reset, passes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        sys.argv[4] == "1", int(sys.argv[5])
    data = open(path, "rb").read()
    messages = []
    at = 0
    while at < len(data):
        n = struct.unpack(">I", data[at:at + 4])[0]
        messages.append(data[at + 4:at + 4 + n])
        at += 4 + n
    total = sum(len(m) for m in messages)
    for _ in range(passes):
        out = 0
        c = zlib.compressobj(level, zlib.DEFLATED, -bits)
        start = time.process_time()
        for m in messages:
            if reset:
                c = zlib.compressobj(level, zlib.DEFLATED, -bits)
            out += len(c.compress(m) + c.flush(zlib.Z_SYNC_FLUSH)) - 4
        cpu = time.process_time() - start
        print(out, total, cpu, flush=True)


if __name__ == "__main__":
    main()
