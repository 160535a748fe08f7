#!/usr/bin/env python3
"""A stand-in collector for the tests of sampler-submit: the upload
protocol of docs/remote.md on loopback, strictly, and the ways a server can
answer badly.

  collector.py --port-file FILE --store DIR --key KEY --product P --version V
               [--mode MODE] [--port N] [--tls CERT KEYFILE]

It listens on 127.0.0.1 (port N, or any free one, written to FILE once it
listens) and keeps each report it stores as DIR/<run id>.report, written to a
temporary file, fsync'ed and renamed before it answers "stored".  Every
request is logged as one line of DIR/requests.log: the run id header (or -),
then what the answer was (stored, duplicate, or the HTTP status).

MODE says how it answers:
  normal    the protocol (the default)
  garbage   bytes that are not HTTP, then it closes the connection
  redirect  307 to another host
  drip      a 201 answer, one byte a second
  hang      reads the request and never answers
  busy      503 with Retry-After: 120
  refuse    422: the report does not fit the release
  gone      410: the release is retired
  portal    200 with a web page, as a captive portal answers
"""
import argparse
import http.server
import os
import re
import socketserver
import ssl
import sys
import threading
import time
import zlib

BODY_MAX = 16 << 20
REPORT_MAX = 64 << 20


class Collector(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "test-collector"

    def log_message(self, *args):
        pass

    def log_request_line(self, run_id, outcome):
        with self.server.log_lock, open(os.path.join(self.server.store, "requests.log"), "a") as log:
            log.write(f"{run_id or '-'} {outcome}\n")

    def answer(self, code, text, run_id, outcome=None, headers=()):
        body = (text + "\n").encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        self.log_request_line(run_id, outcome or str(code))

    def read_body(self):
        length = int(self.headers.get("Content-Length", "-1"))
        if length < 0 or length > BODY_MAX:
            return None
        return self.rfile.read(length)

    def do_POST(self):
        run_id = self.headers.get("Sampler-Run-Id")
        mode = self.server.mode
        if self.path != "/v1/reports":
            self.read_body()
            return self.answer(404, "no such endpoint", run_id)
        if mode == "redirect":
            self.read_body()
            return self.answer(307, "moved", run_id, headers=[("Location", "http://elsewhere.invalid/v1/reports")])
        if mode == "busy":
            self.read_body()
            return self.answer(503, "busy", run_id, headers=[("Retry-After", "120")])
        if mode == "gone":
            self.read_body()
            return self.answer(410, "this release is retired", run_id)
        if mode == "refuse":
            self.read_body()
            return self.answer(422, "the report does not fit the release's site tables", run_id)
        if mode == "portal":
            self.read_body()
            body = b"<html><body>Please log in to the hotel network</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return self.log_request_line(run_id, "200")
        if self.headers.get("Authorization") != "Bearer " + self.server.key:
            self.read_body()
            return self.answer(401, "unknown upload key", run_id)
        if (self.headers.get("Content-Encoding") != "gzip"
                or self.headers.get("Content-Type") != "application/x-sampler-report"):
            self.read_body()
            return self.answer(415, "expected a gzip'ed application/x-sampler-report", run_id)
        body = self.read_body()
        if body is None:
            self.close_connection = True
            return self.answer(413, "body too large", run_id)
        try:
            stream = zlib.decompressobj(16 + zlib.MAX_WBITS)
            report = stream.decompress(body, REPORT_MAX + 1)
            if len(report) > REPORT_MAX or stream.unconsumed_tail:
                return self.answer(413, "report too large", run_id)
            if not stream.eof:
                return self.answer(400, "truncated gzip", run_id)
        except zlib.error:
            return self.answer(400, "not gzip", run_id)
        problem = self.check(report, run_id)
        if problem:
            return self.answer(problem[0], problem[1], run_id)
        path = os.path.join(self.server.store, run_id + ".report")
        with self.server.store_lock:
            if os.path.exists(path):
                return self.answer(200, "duplicate " + run_id, run_id, "duplicate")
            temporary = path + ".tmp"
            with open(temporary, "wb") as out:
                out.write(report)
                out.flush()
                os.fsync(out.fileno())
            os.rename(temporary, path)
            directory = os.open(self.server.store, os.O_RDONLY)
            os.fsync(directory)
            os.close(directory)
        self.answer(201, "stored " + run_id, run_id, "stored")

    def check(self, report, run_id):
        """(status, reason) when the report is not one this release takes."""
        if not run_id or not re.fullmatch(r"[0-9a-f]{32}", run_id):
            return 400, "no Sampler-Run-Id"
        try:
            text = report.decode("utf-8", "surrogateescape")
        except UnicodeError:
            return 400, "undecodable"
        lines = text.split("\n")
        if lines[0] != "sampler-report\t1" or not text.endswith("end\n"):
            return 400, "not a whole report of version 1"
        header = {}
        for line in lines[1:]:
            fields = line.split("\t")
            if fields[0] in ("object", "unit", "loaded", "end"):
                break
            header[fields[0]] = fields[1:]
        if header.get("run-id") != [run_id]:
            return 400, "the run id of the report is not the header's"
        if header.get("release") != [self.server.product, self.server.version]:
            return 422, "not a report of this release"
        return None


class RawHandler(socketserver.StreamRequestHandler):
    """The modes that do not speak HTTP properly."""

    def handle(self):
        # The request's head, so that the client has sent something.
        while True:
            line = self.rfile.readline(65537)
            if not line or line in (b"\r\n", b"\n"):
                break
        mode = self.server.mode
        with self.server.log_lock, open(os.path.join(self.server.store, "requests.log"), "a") as log:
            log.write(f"- {mode}\n")
        if mode == "garbage":
            self.wfile.write(b"\x00\x01 this is not HTTP at all\r\n\r\n")
        elif mode == "drip":
            for byte in b"HTTP/1.1 201 Created\r\nContent-Length: 40\r\n\r\n":
                try:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(1)
        elif mode == "hang":
            time.sleep(600)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--store", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--product", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--mode", default="normal",
                        choices=["normal", "garbage", "redirect", "drip", "hang", "busy",
                                 "refuse", "gone", "portal"])
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEYFILE"))
    args = parser.parse_args()
    handler = RawHandler if args.mode in ("garbage", "drip", "hang") else Collector
    server = Server(("127.0.0.1", args.port), handler)
    server.mode, server.store, server.key = args.mode, args.store, args.key
    server.product, server.version = args.product, args.version
    server.store_lock, server.log_lock = threading.Lock(), threading.Lock()
    os.makedirs(args.store, exist_ok=True)
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*args.tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(args.port_file + ".tmp", "w") as out:
        out.write(f"{server.server_address[1]}\n")
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
