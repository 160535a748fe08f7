#!/usr/bin/env python3
"""Clients of sampler-collect for its tests: the bad ones of the
bad-input table (docs/collect.md) and a well-behaved one to check that the
service still serves.

  client.py upload PORT KEY FILE [options]   one upload; prints the status
                                             and the answer's first line
      --header-id ID     the Sampler-Run-Id header (default: the report's)
      --type T --encoding E --path P --method M
      --raw              send FILE as the body as it is (not gzip'ed)
      --no-key           no Authorization header
      --length N         claim Content-Length N (the body as it is)
      --source ADDRESS   connect from ADDRESS (127.0.0.2: another client)
  client.py slow PORT SECONDS [--body KEY FILE]
                                             a slowloris: a request's
                                             headers a byte a second (or
                                             its body); prints how long
                                             the service kept the
                                             connection
  client.py many PORT COUNT SECONDS          COUNT idle connections held
                                             SECONDS; prints how many the
                                             service accepted, then
                                             "holding", then how many it
                                             closed
Standard library only."""
import gzip
import socket
import sys
import time


def options(argv, names):
    values, flags, rest = {}, set(), []
    i = 0
    while i < len(argv):
        name = argv[i]
        if name in names and names[name]:
            values[name] = argv[i + 1]
            i += 2
        elif name in names:
            flags.add(name)
            i += 1
        else:
            rest.append(name)
            i += 1
    return values, flags, rest


def run_id_of(text):
    for line in text.split(b"\n"):
        if line.startswith(b"run-id\t"):
            return line[7:].decode()
    return "0" * 32


def exchange(port, request, source=None, timeout=30):
    """Sends REQUEST; returns (status, first line of the body) or
    ('closed', why) when the service closes without an answer."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    if source:
        sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    try:
        sock.sendall(request)
    except OSError as error:
        pass
    answer = b""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
            if b"\r\n\r\n" in answer:
                head, _, body = answer.partition(b"\r\n\r\n")
                length = [int(l.split(b":")[1]) for l in head.split(b"\r\n")
                          if l.lower().startswith(b"content-length:")]
                if length and len(body) >= length[0]:
                    break
    except OSError as error:
        if not answer:
            return "closed", str(error)
    finally:
        sock.close()
    if not answer:
        return "closed", "no answer"
    head, _, body = answer.partition(b"\r\n\r\n")
    status = head.split(b"\r\n")[0].split(b" ")[1].decode()
    retry = [l.split(b":", 1)[1].strip().decode() for l in head.split(b"\r\n")
             if l.lower().startswith(b"retry-after:")]
    first = body.split(b"\n")[0].decode(errors="replace")
    return status, first + (" [Retry-After: %s]" % retry[0] if retry else "")


def upload(argv):
    values, flags, rest = options(argv, {"--header-id": True, "--type": True,
                                         "--encoding": True, "--path": True, "--method": True,
                                         "--raw": False, "--no-key": False, "--length": True,
                                         "--source": True})
    port, key, path = int(rest[0]), rest[1], rest[2]
    text = open(path, "rb").read()
    body = text if "--raw" in flags else gzip.compress(text)
    headers = [
        "%s %s HTTP/1.1" % (values.get("--method", "POST"), values.get("--path", "/v1/reports")),
        "Host: 127.0.0.1:%d" % port,
        "Content-Type: %s" % values.get("--type", "application/x-sampler-report"),
        "Content-Encoding: %s" % values.get("--encoding", "gzip"),
        "Sampler-Run-Id: %s" % values.get("--header-id", run_id_of(text)),
        "Content-Length: %s" % values.get("--length", len(body)),
        "Connection: close",
    ]
    if "--no-key" not in flags:
        headers.append("Authorization: Bearer %s" % key)
    request = ("\r\n".join(headers) + "\r\n\r\n").encode() + body
    status, first = exchange(port, request, values.get("--source"))
    print(status, first)


def slow(argv):
    """Headers a byte a second (or, with --body KEY FILE, whole headers
    and then the body a byte a second)."""
    values, flags, rest = options(argv, {"--body": False})
    port, seconds = int(rest[0]), float(rest[1])
    sock = socket.create_connection(("127.0.0.1", port))
    if "--body" in flags:
        key, path = rest[2], rest[3]
        text = open(path, "rb").read()
        body = gzip.compress(text)
        sock.sendall(("POST /v1/reports HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                      "Content-Type: application/x-sampler-report\r\nContent-Encoding: gzip\r\n"
                      "Sampler-Run-Id: %s\r\nContent-Length: %d\r\n\r\n"
                      % (key, run_id_of(text), len(body))).encode())
        drip = body
    else:
        drip = b"POST /v1/reports HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " * 100
    start = time.time()
    closed = None
    for i in range(int(seconds)):
        try:
            sock.sendall(drip[i:i + 1])
            sock.settimeout(1)
            if sock.recv(1024) == b"":
                closed = time.time() - start
                break
        except socket.timeout:
            continue
        except OSError:
            closed = time.time() - start
            break
    sock.close()
    print("closed after %.0f s" % closed if closed is not None else "open after %.0f s" % seconds)


def many(argv):
    port, count, seconds = int(argv[0]), int(argv[1]), float(argv[2])
    sockets = []
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.setblocking(False)
            sockets.append(sock)
        except OSError:
            break
    print("opened %d" % len(sockets), flush=True)
    print("holding", flush=True)
    time.sleep(seconds)
    closed = 0
    for sock in sockets:
        try:
            if sock.recv(1) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        sock.close()
    print("closed by the service %d" % closed, flush=True)


if __name__ == "__main__":
    {"upload": upload, "slow": slow, "many": many}[sys.argv[1]](sys.argv[2:])
