package servercost

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func TestParseBlockCache(t *testing.T) {
	fixture, err := os.ReadFile("testdata/prometheus-blockcache.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		text         string
		hits, misses int64
		wantErr      bool
	}{
		{name: "region server's answer", text: string(fixture), hits: 18132, misses: 101},
		{name: "master record ignored", text: "server_block_cache_hit_count{context=\"master\"} 9\nserver_block_cache_hit_count{context=\"regionserver\"} 3\nserver_block_cache_miss_count{context=\"regionserver\"} 1\n", hits: 3, misses: 1},
		{name: "float value", text: "server_block_cache_hit_count 1.0E3\nserver_block_cache_miss_count 2\n", hits: 1000, misses: 2},
		{name: "misses missing", text: "server_block_cache_hit_count{context=\"regionserver\"} 3\n", wantErr: true},
		{name: "not prometheus", text: "<html>oops</html>\n", wantErr: true},
		{name: "empty", text: "", wantErr: true},
		{name: "garbage value", text: "server_block_cache_hit_count x\nserver_block_cache_miss_count 2\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bc, err := parseBlockCache(strings.NewReader(tt.text))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if err == nil && (bc.Hits != tt.hits || bc.Misses != tt.misses) {
				t.Errorf("got %d hits %d misses, want %d and %d", bc.Hits, bc.Misses, tt.hits, tt.misses)
			}
		})
	}
}

func TestReadBlockCache(t *testing.T) {
	fixture, err := os.ReadFile("testdata/prometheus-blockcache.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		handler http.HandlerFunc
		hits    int64
		noLive  bool
		wantErr bool
	}{
		{name: "2.6 info server", handler: func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/prometheus" || r.URL.Query().Get("qry") == "" {
				http.NotFound(w, r)
				return
			}
			w.Write(fixture)
		}, hits: 18132},
		{name: "no /prometheus (2.4)", handler: http.NotFound, noLive: true, wantErr: true},
		{name: "server error", handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) }, wantErr: true},
		{name: "an answer without the record is taken again", handler: func() http.HandlerFunc {
			n := 0
			return func(w http.ResponseWriter, r *http.Request) {
				if n++; n == 1 {
					w.Write([]byte("# TYPE server_block_cache_size gauge\n"))
					return
				}
				w.Write(fixture)
			}
		}(), hits: 18132},
		{name: "never the record", handler: func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x 1\n")) }, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			bc, err := ReadBlockCache(context.Background(), srv.Client(), strings.TrimPrefix(srv.URL, "http://"))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if got := errors.Is(err, ErrNoLiveMetrics); got != tt.noLive {
				t.Errorf("ErrNoLiveMetrics %v, want %v (%v)", got, tt.noLive, err)
			}
			if err == nil && (bc.Hits != tt.hits || bc.At.IsZero()) {
				t.Errorf("got %+v, want %d hits and a time", bc, tt.hits)
			}
		})
	}
}

// TestReadBlockCacheOverTLS: an info server FindJMX found speaking TLS
// (https://host:port) has its /prometheus read over TLS too.
func TestReadBlockCacheOverTLS(t *testing.T) {
	fixture, err := os.ReadFile("testdata/prometheus-blockcache.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(fixture) }))
	defer srv.Close()
	bc, err := ReadBlockCache(context.Background(), srv.Client(), srv.URL)
	if err != nil || bc.Hits != 18132 {
		t.Fatalf("%+v, %v; want 18132 hits", bc, err)
	}
}

func FuzzParseBlockCache(f *testing.F) {
	f.Add("server_block_cache_hit_count{context=\"regionserver\"} 3\nserver_block_cache_miss_count 1\n")
	f.Add("a{b 1\n} 2\n{ 3\n")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parseBlockCache(strings.NewReader(s))
	})
}
