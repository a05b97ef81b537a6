// A categories service on Go's net/http and encoding/json alone, written as a Go team writes it
// (test/inputs/go-net-http.test.ts). It listens on 127.0.0.1:0 and prints its port. MODE:
//   careful           conforms: the body read whole, utf8.Valid, the fields read from a
//                     map[string]json.RawMessage, text after the value and lone surrogates refused
//   bound-after-check the same checks, then the body bound to the struct with json.Unmarshal, which
//                     matches keys in any case, the later member winning
//   careful-strict    careful, and what a service may refuse refused with 400: a member NewCategory
//                     does not name (its exact key), a body past 98 bytes, a name past 16 and a
//                     description past 32 characters
//   subtree           careful, with the collection at the subtree pattern "/v1/categories/"
//   http-error        json.NewDecoder(r.Body).Decode into the struct, errors written by http.Error
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"
)

type Category struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
}

type NewCategory struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

var (
	mode   = os.Getenv("MODE")
	key    = os.Getenv("SERVER_KEY")
	mu     sync.Mutex
	store  = []Category{}
	nextID int64
	// an escaped surrogate that is not half of a pair, which encoding/json would make U+FFFD
	loneSurrogate = regexp.MustCompile(`(?i)\\u(d[89ab][0-9a-f]{2}(?:\\u(d[c-f][0-9a-f]{2}))?|d[c-f][0-9a-f]{2})`)
)

func writeJSON(w http.ResponseWriter, status int, v interface{}) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, code, message string) {
	if mode == "http-error" {
		http.Error(w, message, status)
		return
	}
	writeJSON(w, status, map[string]interface{}{"code": code, "message": message, "status": status})
}

func hasLoneSurrogate(raw []byte) bool {
	for _, m := range loneSurrogate.FindAllSubmatch(bytes.ReplaceAll(raw, []byte(`\\`), nil), -1) {
		if bytes.HasPrefix(bytes.ToLower(m[1]), []byte("dc")) || bytes.HasPrefix(bytes.ToLower(m[1]), []byte("dd")) ||
			bytes.HasPrefix(bytes.ToLower(m[1]), []byte("de")) || bytes.HasPrefix(bytes.ToLower(m[1]), []byte("df")) || len(m[2]) == 0 {
			return true
		}
	}
	return false
}

// readCreate gives the fields of a create body, or false after it answered 400.
func readCreate(w http.ResponseWriter, r *http.Request) (NewCategory, bool) {
	var in NewCategory
	if mode == "http-error" {
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Name == nil {
			fail(w, http.StatusBadRequest, "invalid_body", "invalid body")
			return in, false
		}
		return in, true
	}
	if mode == "careful-strict" {
		r.Body = http.MaxBytesReader(w, r.Body, 98)
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil || !utf8.Valid(raw) || hasLoneSurrogate(raw) {
		fail(w, http.StatusBadRequest, "invalid_json", "the body is not JSON text")
		return in, false
	}
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&fields); err != nil || fields == nil {
		fail(w, http.StatusBadRequest, "invalid_json", "the body is not a JSON object")
		return in, false
	}
	if _, err := dec.Token(); err != io.EOF {
		fail(w, http.StatusBadRequest, "invalid_json", "text after the JSON value")
		return in, false
	}
	text := func(name string) (*string, bool) {
		v, ok := fields[name]
		if !ok {
			return nil, true
		}
		var s string
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
			return nil, false
		}
		return &s, true
	}
	name, okName := text("name")
	description, okDescription := text("description")
	if name == nil || !okName || !okDescription {
		fail(w, http.StatusBadRequest, "invalid_body", "name must be a string, description a string if sent")
		return in, false
	}
	if mode == "careful-strict" {
		for k := range fields {
			if k != "name" && k != "description" {
				fail(w, http.StatusBadRequest, "invalid_body", "unknown field "+strconv.Quote(k))
				return in, false
			}
		}
		if utf8.RuneCountInString(*name) > 16 || (description != nil && utf8.RuneCountInString(*description) > 32) {
			fail(w, http.StatusBadRequest, "invalid_body", "name or description too long")
			return in, false
		}
	}
	in = NewCategory{Name: name, Description: description}
	if mode == "bound-after-check" {
		in = NewCategory{}
		json.Unmarshal(raw, &in)
	}
	if mode == "bound-after-check-strict" {
		// DisallowUnknownFields matches keys as Unmarshal does, in any case: "Name" is no unknown field, an id is
		in = NewCategory{}
		strict := json.NewDecoder(bytes.NewReader(raw))
		strict.DisallowUnknownFields()
		if err := strict.Decode(&in); err != nil {
			fail(w, http.StatusBadRequest, "invalid_body", "unknown field in the body")
			return in, false
		}
	}
	return in, true
}

func categories(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		mu.Lock()
		defer mu.Unlock()
		writeJSON(w, http.StatusOK, store)
	case http.MethodPost:
		in, ok := readCreate(w, r)
		if !ok {
			return
		}
		mu.Lock()
		c := Category{ID: nextID, Name: *in.Name, Description: in.Description}
		nextID++
		store = append(store, c)
		mu.Unlock()
		writeJSON(w, http.StatusCreated, c)
	default:
		w.Header().Set("Allow", "GET, POST")
		fail(w, http.StatusMethodNotAllowed, "method_not_allowed", "method not allowed")
	}
}

func main() {
	nextID, _ = strconv.ParseInt(os.Getenv("ID_START"), 10, 64)
	mux := http.NewServeMux()
	pattern := "/v1/categories"
	if mode == "subtree" {
		pattern += "/"
	}
	mux.HandleFunc(pattern, categories)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fail(w, http.StatusNotFound, "not_found", "not found") })
	// the key checked before the mux, for every path
	guarded := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.Header().Set("WWW-Authenticate", "Bearer")
			fail(w, http.StatusUnauthorized, "unauthorized", "missing or invalid API key")
			return
		}
		mux.ServeHTTP(w, r)
	})
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println(listener.Addr().(*net.TCPAddr).Port)
	http.Serve(listener, guarded)
}
