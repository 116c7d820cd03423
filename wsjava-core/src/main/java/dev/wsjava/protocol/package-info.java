/**
 * RFC 6455 §5 framing, sans-I/O: opcodes, close codes, frame headers, the frame parser and
 * encoder, masking, UTF-8 validation, size limits and the protocol errors that carry the close code
 * to send.
 *
 * <p>The bottom layer: it imports nothing else from the module but the API's leaf exception
 * {@code dev.wsjava.ProtocolException}, opens no socket, starts no thread and reads no clock. Not
 * exported: the nouns user code meets (close codes, protocol errors) are in {@code dev.wsjava}.
 */
package dev.wsjava.protocol;
