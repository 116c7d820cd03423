// The gorilla/websocket echo server of the wsjava end-to-end suite: a native (Go) reference,
// outside the JVM ratios like Node's ws. net/http's server, a goroutine per connection, GOMAXPROCS
// as Go sets it (the processors the process may run on: 1 when the suite pins it). GET / answers
// "hello"; /echo reads a whole message and writes it back (ReadMessage, WriteMessage: gorilla's own
// echo example), as text or binary as it came.
//
// Usage: gorilla-echo PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]
// (the arguments of every peer, see PeerArgs.java). Built by ./bench from Debian's golang-go and
// golang-github-gorilla-websocket-dev, offline, in GOPATH mode.
package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/gorilla/websocket"
)

// The suite's contract: messages and frames up to 16 MiB, larger ones refused (1009).
const maxMessage = 16 << 20

// Set at build time from the Debian package's version.
var gorillaVersion = "unknown"

type args struct {
	port    int
	host    string
	level   int // -1: no permessage-deflate
	oneLoop bool
	tls     string
}

func usage(why string) {
	fmt.Fprintln(os.Stderr, why+"; usage: gorilla-echo PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]")
	os.Exit(2)
}

func parse(argv []string) args {
	if len(argv) < 1 {
		usage("no port")
	}
	port, err := strconv.Atoi(argv[0])
	if err != nil {
		usage("bad port " + argv[0])
	}
	a := args{port: port, host: "127.0.0.1", level: -1}
	for i := 1; i < len(argv); i++ {
		value := func() string {
			if i+1 >= len(argv) {
				usage(argv[i] + " needs a value")
			}
			i++
			return argv[i]
		}
		switch argv[i] {
		case "--host":
			a.host = value()
		case "--deflate":
			if a.level, err = strconv.Atoi(value()); err != nil || a.level < 0 || a.level > 9 {
				usage("--deflate takes a zlib level 0-9")
			}
		case "--one-loop":
			a.oneLoop = true
		case "--tls":
			a.tls = value()
		default:
			usage("unknown argument " + argv[i])
		}
	}
	return a
}

func main() {
	a := parse(os.Args[1:])
	if a.oneLoop {
		runtime.GOMAXPROCS(1)
	}
	upgrader := websocket.Upgrader{
		// The read size of wsjava's server (64 KiB), rather than gorilla's 4 KiB.
		ReadBufferSize:    64 << 10,
		WriteBufferSize:   64 << 10,
		EnableCompression: a.level >= 0,
		CheckOrigin:       func(*http.Request) bool { return true },
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("hello"))
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		c, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return // the upgrader answered the error
		}
		defer c.Close()
		c.SetReadLimit(maxMessage)
		if a.level >= 0 {
			c.SetCompressionLevel(a.level)
		}
		for {
			kind, message, err := c.ReadMessage()
			if err != nil {
				return
			}
			if err := c.WriteMessage(kind, message); err != nil {
				return
			}
		}
	})
	// Go's TCP connections have TCP_NODELAY on by default; net.Listen's backlog is the kernel's
	// somaxconn.
	ln, err := net.Listen("tcp", net.JoinHostPort(a.host, strconv.Itoa(a.port)))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// HTTP/1.1 only: WebSocket upgrades are HTTP/1.1, so no HTTP/2 over TLS either.
	server := &http.Server{Handler: mux, TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){}}
	detail := []string{fmt.Sprintf("gorilla/websocket %s (%s), a goroutine per connection, GOMAXPROCS %d,"+
		" ReadMessage/WriteMessage with 64 KiB buffers", gorillaVersion, runtime.Version(), runtime.GOMAXPROCS(0))}
	if a.level >= 0 {
		detail = append(detail, fmt.Sprintf("deflate level %d (no context takeover: gorilla has no other mode)", a.level))
	}
	if a.tls != "" {
		detail = append(detail, "wss (crypto/tls)")
	}
	fmt.Printf("READY %d %s\n", a.port, strings.Join(detail, "; "))
	os.Stdout.Sync()
	if a.tls != "" {
		err = server.ServeTLS(ln, filepath.Join(a.tls, "cert.pem"), filepath.Join(a.tls, "key.pem"))
	} else {
		err = server.Serve(ln)
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
