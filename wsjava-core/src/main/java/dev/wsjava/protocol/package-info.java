/**
 * RFC 6455 §5 framing, sans-I/O: opcodes, close codes, frame headers, the frame parser and
 * encoder, masking, UTF-8 validation, size limits and the protocol errors that carry the close code
 * to send.
 *
 * <p>The bottom layer: it imports nothing else from the module, opens no socket, starts no thread
 * and reads no clock. Exported by the module, with internals among the public types ({@code
 * FrameParser}, {@code FrameEncoder}, {@code Masking}, {@code Utf8Validator}, {@code
 * MaskKeySource}) that issue 26 plans to move out of the exported surface or to document as a
 * sans-I/O API.
 */
package dev.wsjava.protocol;
