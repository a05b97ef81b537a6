"""The categories interface as a Python team might write it with the standard library alone:
http.server's HTTPServer (one thread: it reads a kept-alive connection until the client closes it,
and listens with a backlog of 5) over HTTP/1.1, or over HTTP/1.0 (PROTOCOL), where it closes each
connection after its answer and takes the next from its backlog, each answer DELAY seconds late.
Conforming; started by test/http/one-connection-at-a-time.test.ts and test/inputs/chunked-create.test.ts
(over HTTP/1.0 reading bodies by Content-Length alone, CONTENT_LENGTH_ONLY), which print the port it is given;
with EARLY_AUTH, not: a POST without the key is answered 401 with its body left unread (test/hostile/unread-body.test.ts)."""
import json
import os
import time
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlsplit

KEY = os.environ["SERVER_KEY"]
store = []


def refuse_constant(name):
    raise ValueError(name)


class Handler(BaseHTTPRequestHandler):
    protocol_version = os.environ.get("PROTOCOL", "HTTP/1.1")

    def log_message(self, *args):
        pass

    def reply(self, status, record):
        time.sleep(float(os.environ.get("DELAY", "0")))
        body = json.dumps(record).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, code, message):
        self.reply(status, {"code": code, "message": message, "status": status})

    def authorized(self):
        return self.headers.get("Authorization") == "Bearer " + KEY

    def do_GET(self):
        if not self.authorized():
            return self.error(401, "unauthorized", "missing or invalid API key")
        if urlsplit(self.path).path == "/v1/categories":
            return self.reply(200, store)
        return self.error(404, "not_found", "no such resource")

    def body(self):
        # http.server reads no chunked body itself: a request without Content-Length sent in chunks
        # (Transfer-Encoding: chunked) is read chunk by chunk, as HTTP/1.1 asks (RFC 9112 §7.1), unless
        # CONTENT_LENGTH_ONLY (an HTTP/1.0 server need not read chunks: RFC 9112 §6.1)
        chunked = "chunked" in (self.headers.get("Transfer-Encoding") or "").lower()
        if not chunked or os.environ.get("CONTENT_LENGTH_ONLY"):
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))
        data = b""
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip(), 16)
            if size == 0:
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass
                return data
            data += self.rfile.read(size)
            self.rfile.readline()

    def do_POST(self):
        # EARLY_AUTH: a request without the key is answered before its body is read, which is left
        # on the kept-alive connection and read as the next request's line (not conforming)
        if os.environ.get("EARLY_AUTH") and not self.authorized():
            return self.error(401, "unauthorized", "missing or invalid API key")
        body = self.body()
        if not self.authorized():
            return self.error(401, "unauthorized", "missing or invalid API key")
        if urlsplit(self.path).path != "/v1/categories":
            return self.error(404, "not_found", "no such resource")
        try:
            data = json.loads(body.decode("utf-8"), parse_constant=refuse_constant)
        except ValueError:
            return self.error(400, "invalid_json", "the body is not valid JSON")
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            return self.error(400, "invalid_request", "name is required and must be a string")
        if "description" in data and not isinstance(data["description"], str):
            return self.error(400, "invalid_request", "description must be a string")
        record = {"id": len(store) + 1, "name": data["name"]}
        if "description" in data:
            record["description"] = data["description"]
        store.append(record)
        self.reply(201, record)


server = HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
