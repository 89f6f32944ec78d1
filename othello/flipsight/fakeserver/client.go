package fakeserver

import (
	"io"
	"net/http"
	"sync"
)

// Client returns an HTTP client that hands every request to s in this
// process, whatever its URL's host: no listener, no TLS. A response's
// body is piped from the handler as it writes (the event stream is
// read while it is served), so in a testing/synctest bubble every wait
// of the connector and the server is on the bubble's own channels and
// timers, and the fake clock moves only when both are idle.
func (s *Server) Client() *http.Client { return &http.Client{Transport: handlerTransport{s}} }

type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	pr, pw := io.Pipe()
	w := &pipeResponse{header: http.Header{}, body: pw, ready: make(chan struct{})}
	in := req.Clone(req.Context())
	if in.Body == nil {
		in.Body = http.NoBody
	}
	go func() {
		defer pw.Close()
		t.h.ServeHTTP(w, in)
		w.WriteHeader(http.StatusOK) // a handler that wrote nothing
	}()
	select {
	case <-w.ready:
	case <-req.Context().Done():
		pr.Close()
		return nil, req.Context().Err()
	}
	return &http.Response{
		Status: http.StatusText(w.status), StatusCode: w.status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.sent, Body: pr, ContentLength: -1, Request: req,
	}, nil
}

// pipeResponse is the handler's side of a piped response.
type pipeResponse struct {
	header http.Header
	sent   http.Header // the header as the status was written
	body   *io.PipeWriter
	status int
	once   sync.Once
	ready  chan struct{} // closed when the status is known
}

func (w *pipeResponse) Header() http.Header { return w.header }

func (w *pipeResponse) WriteHeader(code int) {
	w.once.Do(func() {
		w.status = code
		w.sent = w.header.Clone() // later changes by the handler are not sent
		close(w.ready)
	})
}

func (w *pipeResponse) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// Flush implements http.Flusher: every write already reaches the reader.
func (w *pipeResponse) Flush() {}
