#!/usr/bin/env python3
"""Serves the Plyscope page: www/ at / and the wasm-bindgen output pkg/ at /pkg/.

Every response says Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy:
require-corp, so that the page is cross-origin isolated: SharedArrayBuffer exists and the engine's
worker can load the threads build (shared memory across Web Workers). NO_ISOLATION=1 leaves the
two headers out (the page then falls back to the builds without shared memory).

Usage: serve.py [--port N] [--host H] [--quiet]
Port 0 picks a free port. The first line printed is "serving http://HOST:PORT/".
"""
import argparse
import functools
import http.server
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
        ".svg": "image/svg+xml",
    }
    quiet = False
    no_isolation = os.environ.get("NO_ISOLATION") == "1"

    def translate_path(self, path):
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean == "/pkg" or clean.startswith("/pkg/"):
            rel = clean[len("/pkg"):]
            base = os.path.join(ROOT, "pkg")
        else:
            rel = clean
            base = os.path.join(ROOT, "www")
        full = os.path.normpath(os.path.join(base, rel.lstrip("/")))
        if not full.startswith(base):
            return os.path.join(base, "__forbidden__")
        return full

    def end_headers(self):
        # Always revalidate: a rebuilt wasm must not be shadowed by the HTTP cache. The service
        # worker keeps its own copy for offline use.
        self.send_header("Cache-Control", "no-cache")
        if not self.no_isolation:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, fmt, *args):
        if not self.quiet:
            super().log_message(fmt, *args)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    Handler.quiet = args.quiet
    server = http.server.ThreadingHTTPServer((args.host, args.port), Handler)
    host, port = server.server_address[:2]
    print(f"serving http://{host}:{port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
