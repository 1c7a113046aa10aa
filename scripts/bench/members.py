#!/usr/bin/env python3
"""Many members with sessions of their own, for `scripts/bench.sh`'s mixed load (issue 29).

  members.py sign-in BASE N OUT_LUA   signs bench-1..bench-N in (each from its own address, through
                                     ORTAK_TRUSTED_PROXIES) and writes their cookies and CSRF
                                     tokens as a Lua table for wrk
  members.py write BASE OUT_LUA RATE SECONDS
                                     while wrk reads, toggles saved startups through the site at
                                     RATE writes a second, each by a random member; prints how
                                     many answered 303

Standard library only. Every member shares the benchmark admin's password (bench.sh copies its
hash), so each sign-in is one argon2 verification.
"""

import http.cookiejar
import random
import re
import sys
import time
import urllib.parse
import urllib.request

PASSWORD = "bench-password-1"
STARTUPS = 1000


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def opener(jar):
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)


def csrf_of(html):
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    if not found:
        raise SystemExit("no CSRF token on the page")
    return found.group(1)


def post(client, url, fields, headers):
    data = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        return client.open(request, timeout=30).status
    except urllib.error.HTTPError as answer:
        return answer.code


def sign_in(base, n, out):
    members = []
    for i in range(1, n + 1):
        jar = http.cookiejar.CookieJar()
        client = opener(jar)
        address = {"X-Forwarded-For": f"10.9.{i // 250}.{i % 250 + 1}"}
        page = client.open(urllib.request.Request(f"{base}/signin", headers=address), timeout=30)
        token = csrf_of(page.read().decode())
        fields = {"csrf": token, "email": f"bench-{i}@example.com", "password": PASSWORD,
                  "terms": "1", "next": "/overview"}
        status = post(client, f"{base}/signin", fields, {"Origin": base, **address})
        if status != 303:
            raise SystemExit(f"bench-{i} could not sign in: {status}")
        cookie = "; ".join(f"{c.name}={c.value}" for c in jar if c.name.startswith("ortak_"))
        members.append((cookie, token, address["X-Forwarded-For"]))
    with open(out, "w", encoding="utf-8") as lua:
        lua.write("members = {\n")
        for cookie, token, address in members:
            lua.write(f'  {{cookie = "{cookie}", csrf = "{token}", ip = "{address}"}},\n')
        lua.write("}\n")


def members_of(lua_file):
    text = open(lua_file, encoding="utf-8").read()
    return re.findall(r'cookie = "([^"]*)", csrf = "([^"]*)", ip = "([^"]*)"', text)


def write(base, lua_file, rate, seconds):
    members = members_of(lua_file)
    if rate <= 0:
        time.sleep(seconds)
        print("0 writes")
        return
    done, refused = 0, 0
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        due = started + done / rate
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        cookie, token, address = random.choice(members)
        slug = f"bench-{random.randint(1, STARTUPS)}"
        fields = {"csrf": token, "favorite": random.choice(["0", "1"]), "return": "/startups"}
        headers = {"Origin": base, "Cookie": cookie, "X-Forwarded-For": address}
        status = post(urllib.request.build_opener(NoRedirect), f"{base}/favorites/{slug}",
                      fields, headers)
        done += 1
        refused += status != 303
    print(f"{done} writes, {refused} not answered 303")


if __name__ == "__main__":
    if sys.argv[1] == "sign-in":
        sign_in(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
    else:
        raise SystemExit(__doc__)
