/**
 * The JDK Flight Recorder events wsjava emits, and its logger names (see {@link
 * dev.wsjava.events.Loggers}). Internal: not exported; the events are read by name from a
 * recording (category {@code wsjava}).
 *
 * <p>Every event is committed only when a recording enables it ({@code shouldCommit()}), so an
 * application that records nothing pays a branch per event site. {@code dev.wsjava.MessageSize}
 * is off by default even in a recording, and samples one message in 64 when on.
 */
package dev.wsjava.events;
