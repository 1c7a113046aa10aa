#!/usr/bin/env python3
"""Prints the current six-digit TOTP code (RFC 6238: HMAC-SHA-1, 30-second steps) of a base32
secret, as an authenticator app would: the scripts that sign staff in (api-fuzz.sh, bench.sh,
lighthouse.sh, wapiti.sh) give the second factor with it, reading the secret the enrolment
page shows. An optional second argument shifts the time step (e.g. 1 for the next code)."""
import base64
import hashlib
import hmac
import struct
import sys
import time

secret = sys.argv[1].strip().upper()
shift = int(sys.argv[2]) if len(sys.argv) > 2 else 0
key = base64.b32decode(secret + "=" * (-len(secret) % 8))
counter = int(time.time()) // 30 + shift
mac = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
offset = mac[-1] & 0x0F
value = struct.unpack(">I", mac[offset : offset + 4])[0] & 0x7FFFFFFF
print(f"{value % 1_000_000:06d}")
