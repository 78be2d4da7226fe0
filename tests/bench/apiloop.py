#!/usr/bin/env python3
"""The management-API work the benchmarks serve beside: one client on one keep-alive connection, back to back,
until stopped (SIGTERM), then it prints how many rounds it completed and how many requests were refused (the first
refusal is shown). A new curl and python process per request
would measure their own start-up (8 ms of CPU per update, four times berthd's own) instead of berthd.

  apiloop.py PORT KEY update DEPLOYMENT_ID      replace a deployment's page again and again
  apiloop.py PORT KEY deploy BODY.json          deploy the body, then delete that deployment, again and again
  apiloop.py PORT KEY small COUNT               deploy COUNT new files of about 140 bytes (content no earlier
                                                round had, so every blob is new), then delete it, again and again
  apiloop.py ... --rounds N                     stop after N rounds instead (exit 1 at the first refusal)
"""
import argparse
import base64
import http.client
import json
import os
import signal
import sys


def small_files(count):
    """A deploy body of count files: an index and pages of about 140 bytes, unlike any earlier call's (a nonce)."""
    nonce = base64.b16encode(os.urandom(8)).decode()
    files = [{"path": "p/%d.html" % i, "encoding": "base64",
              "content": base64.b64encode(("<!doctype html><title>Page %d</title><p>Generated page %d of a "
                                           "static site, build %s.</p>\n" % (i, i, nonce)).encode()).decode()}
             for i in range(count - 1)]
    return json.dumps({"files": [{"path": "index.html", "content": "<p>" + nonce + "</p>"}] + files})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("key")
    parser.add_argument("mode", choices=["update", "deploy", "small"])
    parser.add_argument("target")
    parser.add_argument("--rounds", type=int, default=0)
    options = parser.parse_args()

    rounds = 0
    refused = 0

    def report(*_):
        print(rounds, refused, flush=True)
        os._exit(0)  # at once, whatever call it interrupted (SystemExit from there left one run going on)

    signal.signal(signal.SIGTERM, report)
    connection = http.client.HTTPConnection("127.0.0.1", options.port, timeout=120)
    headers = {"Host": "localhost:%d" % options.port, "Authorization": "Bearer " + options.key,
               "Content-Type": "application/json"}

    def call(method, path, body=None):
        nonlocal refused
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            refused += 1
            if refused == 1 or options.rounds:
                print("%s %s: %d %s" % (method, path, response.status, data[:200].decode(errors="replace")),
                      file=sys.stderr)
            if options.rounds:
                sys.exit(1)
            return None
        return json.loads(data) if data else None

    body = open(options.target, "rb").read() if options.mode == "deploy" else None
    while options.rounds == 0 or rounds < options.rounds:
        if options.mode == "update":
            call("PUT", "/deploy/" + options.target, json.dumps({"html": "<p>%d</p>" % rounds}))
        else:
            deployed = call("POST", "/deploy", body if body is not None else small_files(int(options.target)))
            if deployed:
                call("DELETE", "/deploy/" + deployed["id"])
        rounds += 1
    report()


main()
