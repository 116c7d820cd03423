"""zlib as a permessage-deflate peer for the tests (RFC 7692 §7.2), over stdin and stdout.

Each request is one byte (the operation), a 4-byte big-endian length and that many bytes; each
answer is b"O" or b"E" (error, the message in UTF-8), a 4-byte length and the bytes.

  I  start an inflater; the body is one byte, N: raw DEFLATE with a window of 2^N bytes
  M  inflate one message: the body is its frames' payloads joined; 00 00 ff ff is appended
  C  start a compressor; the body is two bytes, N and the zlib level
  D  compress one message (sync flush, 00 00 ff ff removed); answers the payload

Inflating is strict about the window: zlib checks a back-reference against the window plus what
the current inflate() call has produced, so each call is allowed one byte of output, and then a
distance beyond 2^N fails ("invalid distance too far back") wherever it occurs.
"""
import struct
import sys
import zlib

TAIL = b"\x00\x00\xff\xff"


def inflate_strictly(inflater, data):
    out = bytearray()
    pos = 0
    tail = b""
    while True:
        if not tail:
            if pos >= len(data):
                break
            tail = data[pos:pos + 64]
            pos += 64
        out += inflater.decompress(tail, 1)
        tail = inflater.unconsumed_tail
    while True:  # output still held in the inflater (the end of a long match)
        more = inflater.decompress(b"", 1)
        if not more:
            return bytes(out)
        out += more


def main():
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    inflater = None
    compressor = None
    while True:
        head = stdin.read(5)
        if len(head) < 5:
            return
        op = head[0:1]
        body = stdin.read(struct.unpack(">I", head[1:5])[0])
        try:
            if op == b"I":
                inflater = zlib.decompressobj(wbits=-body[0])
                answer = b""
            elif op == b"M":
                answer = inflate_strictly(inflater, body + TAIL)
            elif op == b"C":
                compressor = zlib.compressobj(body[1], zlib.DEFLATED, -body[0])
                answer = b""
            elif op == b"D":
                answer = compressor.compress(body) + compressor.flush(zlib.Z_SYNC_FLUSH)
                if not answer.endswith(TAIL):
                    raise ValueError("zlib's sync flush did not end with 00 00 ff ff")
                answer = answer[:-4]
            else:
                raise ValueError("unknown operation %r" % op)
            kind = b"O"
        except (zlib.error, ValueError, TypeError, AttributeError) as e:
            kind = b"E"
            answer = str(e).encode("utf-8")
        stdout.write(kind + struct.pack(">I", len(answer)) + answer)
        stdout.flush()


if __name__ == "__main__":
    main()
