#!/usr/bin/env python3
"""An independent verifier of protocol/SPEC.md part 5 (private cards).

Written from the spec and the vectors alone, with the Python standard
library only: ristretto255 (RFC 9496) over edwards25519, the proofs of
SPEC 5.5-5.7, and the transcript encoding of SPEC 3.1, 3.4 and 3.8.

Usage: python3 protocol/reference/private_cards.py protocol/vectors
       python3 protocol/reference/private_cards.py --transcript FILE...
"""

import hashlib
import json
import os
import struct
import sys
import zlib

# ---------------------------------------------------------------- field and group

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # SPEC 5 notation: the group order


def inv(a):
    return pow(a, P - 2, P)


D = (-121665 * inv(121666)) % P
D2 = (2 * D) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def is_negative(a):
    """RFC 9496 4.1: a field element is negative when its canonical form is odd."""
    return (a % P) & 1


def ct_abs(a):
    a %= P
    return (P - a) % P if is_negative(a) else a


def sqrt_ratio_m1(u, v):
    """RFC 9496 4.2: (was_square, the non-negative root of u/v or of SQRT_M1*u/v)."""
    u %= P
    v %= P
    v3 = v * v % P * v % P
    v7 = v3 * v3 % P * v % P
    r = (u * v3) % P * pow(u * v7 % P, (P - 5) // 8, P) % P
    check = v * r % P * r % P
    correct = check == u
    flipped = check == (-u) % P
    flipped_i = check == (-u * SQRT_M1) % P
    if flipped or flipped_i:
        r = r * SQRT_M1 % P
    return (correct or flipped), ct_abs(r)


# RFC 9496 4.1 constants, derived here rather than copied.
# RFC 9496 fixes SQRT_AD_MINUS_ONE as the root that is "negative" (odd).
SQRT_AD_MINUS_ONE = P - sqrt_ratio_m1((-D - 1) % P, 1)[1]
_, INVSQRT_A_MINUS_D = sqrt_ratio_m1(1, (-1 - D) % P)
ONE_MINUS_D_SQ = (1 - D * D) % P
D_MINUS_ONE_SQ = (D - 1) * (D - 1) % P

IDENTITY = (0, 1, 1, 0)  # extended coordinates (X, Y, Z, T) of edwards25519


def add(p1, p2):
    x1, y1, z1, t1 = p1
    x2, y2, z2, t2 = p2
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * D2 % P * t2 % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def neg(p1):
    x, y, z, t = p1
    return ((-x) % P, y, z, (-t) % P)


def sub(p1, p2):
    return add(p1, neg(p2))


def mul(k, p1):
    """k·P by double-and-add (variable time: a verifier handles only public values)."""
    k %= L
    result = IDENTITY
    addend = p1
    while k:
        if k & 1:
            result = add(result, addend)
        addend = add(addend, addend)
        k >>= 1
    return result


def msm(pairs):
    """Σ k_i·P_i by Straus' interleaving (one shared chain of doublings)."""
    pairs = [(k % L, p1) for k, p1 in pairs if k % L]
    if not pairs:
        return IDENTITY
    # 4-bit fixed windows per point
    tables = []
    for _, p1 in pairs:
        row = [IDENTITY, p1]
        for _ in range(14):
            row.append(add(row[-1], p1))
        tables.append(row)
    result = IDENTITY
    for shift in range(252, -1, -4):
        for _ in range(4):
            result = add(result, result)
        for (k, _), row in zip(pairs, tables):
            nib = (k >> shift) & 15
            if nib:
                result = add(result, row[nib])
    return result


def equal(p1, p2):
    """RFC 9496 4.3.3."""
    x1, y1, _, _ = p1
    x2, y2, _, _ = p2
    return (x1 * y2 - y1 * x2) % P == 0 or (y1 * y2 - x1 * x2) % P == 0


class Invalid(Exception):
    """A value or proof that the spec says to reject; the message names the rule."""


def decode_point(b, what):
    """RFC 9496 4.3.1; SPEC 5.2 rejects every non-canonical encoding."""
    if len(b) != 32:
        raise Invalid(f"{what} must be 32 bytes")
    s = int.from_bytes(b, "little")
    if s >= P or is_negative(s):
        raise Invalid(f"{what} is not a canonical ristretto255 point encoding")
    ss = s * s % P
    u1 = (1 - ss) % P
    u2 = (1 + ss) % P
    u2_sqr = u2 * u2 % P
    v = (-(D * u1 % P * u1) - u2_sqr) % P
    was_square, invsqrt = sqrt_ratio_m1(1, v * u2_sqr)
    den_x = invsqrt * u2 % P
    den_y = invsqrt * den_x % P * v % P
    x = ct_abs(2 * s * den_x)
    y = u1 * den_y % P
    t = x * y % P
    if not was_square or is_negative(t) or y == 0:
        raise Invalid(f"{what} is not a canonical ristretto255 point encoding")
    return (x, y, 1, t)


def encode_point(p1):
    """RFC 9496 4.3.2."""
    x0, y0, z0, t0 = p1
    u1 = (z0 + y0) * (z0 - y0) % P
    u2 = x0 * y0 % P
    _, invsqrt = sqrt_ratio_m1(1, u1 * u2 % P * u2)
    den1 = invsqrt * u1 % P
    den2 = invsqrt * u2 % P
    z_inv = den1 * den2 % P * t0 % P
    if is_negative(t0 * z_inv):
        x, y = y0 * SQRT_M1 % P, x0 * SQRT_M1 % P
        den_inv = den1 * INVSQRT_A_MINUS_D % P
    else:
        x, y, den_inv = x0, y0, den2
    if is_negative(x * z_inv):
        y = (-y) % P
    s = ct_abs(den_inv * (z0 - y))
    return s.to_bytes(32, "little")


def _map(t):
    """RFC 9496 4.3.4, the MAP function."""
    r = SQRT_M1 * t % P * t % P
    u = (r + 1) * ONE_MINUS_D_SQ % P
    v = (-1 - r * D) * (r + D) % P
    was_square, s = sqrt_ratio_m1(u, v)
    s_prime = (-ct_abs(s * t)) % P
    if not was_square:
        s = s_prime
        c = r
    else:
        c = P - 1
    n = (c * (r - 1) % P * D_MINUS_ONE_SQ - v) % P
    w0 = 2 * s * v % P
    w1 = n * SQRT_AD_MINUS_ONE % P
    w2 = (1 - s * s) % P
    w3 = (1 + s * s) % P
    return (w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P)


def from_uniform_bytes(b64):
    """RFC 9496 4.3.4 element derivation of 64 bytes."""
    t1 = (int.from_bytes(b64[:32], "little") & ((1 << 255) - 1)) % P
    t2 = (int.from_bytes(b64[32:], "little") & ((1 << 255) - 1)) % P
    return add(_map(t1), _map(t2))


def hash_to_point(x):
    """SPEC 5.2 HashToPoint."""
    return from_uniform_bytes(hashlib.sha512(x).digest())


def decode_scalar(b, what):
    """SPEC 5.2: 32 bytes little-endian, below ℓ."""
    if len(b) != 32:
        raise Invalid(f"{what} must be 32 bytes")
    k = int.from_bytes(b, "little")
    if k >= L:
        raise Invalid(f"{what} is not a canonical scalar")
    return k


def enc_scalar(k):
    return (k % L).to_bytes(32, "little")


def challenge(x):
    """SPEC 5.3."""
    return int.from_bytes(hashlib.sha512(x).digest(), "little") % L


# ---------------------------------------------------------------- SPEC 5.2 - 5.9

DOMAIN_GENERATOR = b"roundtable/deal/generator/v1"
DOMAIN_CARD = b"roundtable/deal/card/v1"
DOMAIN_KEY_SHARE = b"roundtable/deal/key-share/v1"
DOMAIN_STATEMENT = b"roundtable/deal/shuffle-statement/v1"
DOMAIN_U_SEED = b"roundtable/deal/shuffle-u-seed/v1"
DOMAIN_U = b"roundtable/deal/shuffle-u/v1"
DOMAIN_SHUFFLE_CHALLENGE = b"roundtable/deal/shuffle-challenge/v1"
DOMAIN_DECRYPTION_SHARE = b"roundtable/deal/decryption-share/v1"
MAX_DECK_SIZE = 512

_generators = {}


def generator(k):
    """SPEC 5.2: G_k."""
    if k not in _generators:
        _generators[k] = hash_to_point(DOMAIN_GENERATOR + struct.pack("<I", k))
    return _generators[k]


def card_point(game_id, i):
    """SPEC 5.2: M_i."""
    return hash_to_point(DOMAIN_CARD + game_id + struct.pack("<I", i))


def context(game_id, epoch, seat):
    """SPEC 5.2: the 37 context bytes."""
    return game_id + struct.pack("<I", epoch) + bytes([seat])


def verify_key_share(ctx, message):
    """SPEC 5.5. Returns (X, its encoding, the recomputed T)."""
    if len(message) != 96:
        raise Invalid(f"key share message must be 96 bytes, got {len(message)}")
    x_point = decode_point(message[:32], "key share")
    c = decode_scalar(message[32:64], "key share proof challenge")
    z = decode_scalar(message[64:], "key share proof response")
    if equal(x_point, IDENTITY):
        raise Invalid("a key share must not be the identity point")
    t = msm([(z, generator(0)), (L - c, x_point)])
    t_enc = encode_point(t)
    if challenge(DOMAIN_KEY_SHARE + ctx + message[:32] + t_enc) != c:
        raise Invalid("the key share proof does not verify")
    return x_point, t_enc


def deck_key(key_points):
    k = IDENTITY
    for x_point in key_points:
        k = add(k, x_point)
    if equal(k, IDENTITY):
        raise Invalid("the deck key must not be the identity point")
    return k


def decode_deck(b, what="deck"):
    """SPEC 5.4: list of (A, B, A bytes, B bytes)."""
    if len(b) < 2:
        raise Invalid(f"{what} is shorter than its count")
    n = struct.unpack_from("<H", b)[0]
    if n == 0 or n > MAX_DECK_SIZE:
        raise Invalid(f"{what} must hold 1 to {MAX_DECK_SIZE} cards, got {n}")
    if len(b) != 2 + 64 * n:
        raise Invalid(f"{what} must be {2 + 64 * n} bytes, got {len(b)}")
    return [
        (
            decode_point(b[2 + 64 * j : 34 + 64 * j], f"{what} slot {j} A"),
            decode_point(b[34 + 64 * j : 66 + 64 * j], f"{what} slot {j} B"),
        )
        for j in range(n)
    ]


def open_deck_bytes(game_id, cards):
    """SPEC 5.4: the open deck of the given catalogue indices."""
    out = struct.pack("<H", len(cards))
    for c in cards:
        out += bytes(32) + encode_point(card_point(game_id, c))
    return out


def verify_shuffle(ctx, key, key_enc, input_deck_bytes, message, trace=None):
    """SPEC 5.6. Returns the output deck's encoding. `trace`, when a dict, gets
    every intermediate value of the check so the vectors can be compared."""
    inp = decode_deck(input_deck_bytes, "input deck")
    n = len(inp)
    if len(message) < 2:
        raise Invalid("shuffle message is shorter than its count")
    m = struct.unpack_from("<H", message)[0]
    if m == 0 or m > MAX_DECK_SIZE:
        raise Invalid(f"shuffle must hold 1 to {MAX_DECK_SIZE} cards, got {m}")
    if len(message) != 192 * m + 162:
        raise Invalid(f"shuffle message must be {192 * m + 162} bytes, got {len(message)}")
    if m != n:
        raise Invalid("a shuffle must output as many cards as it takes in")
    off = 2
    out_bytes = message[: 2 + 64 * n]
    out = decode_deck(out_bytes, "shuffle output deck")
    off = 2 + 64 * n

    def take(count, what, decoder):
        nonlocal off
        vals = []
        for i in range(count):
            vals.append(decoder(message[off : off + 32], f"{what} {i}"))
            off += 32
        return vals

    c_enc_start = off
    cs = take(n, "permutation commitment", decode_point)
    c_enc = message[c_enc_start:off]
    chat_start = off
    chat = take(n, "commitment chain link", decode_point)  # Ĉ_1 .. Ĉ_n
    chat_enc = message[chat_start:off]
    c = decode_scalar(message[off : off + 32], "shuffle challenge")
    off += 32
    s1, s2, s3, s4 = take(4, "shuffle response", decode_scalar)
    s_hat = take(n, "chain response", decode_scalar)
    s_prime = take(n, "permutation response", decode_scalar)
    assert off == len(message)

    g = generator(0)
    h = generator(1)
    hs = [generator(2 + i) for i in range(n)]
    statement = hashlib.sha512(
        DOMAIN_STATEMENT + ctx + key_enc + input_deck_bytes + out_bytes[2:]
    ).digest()
    u_seed = hashlib.sha512(DOMAIN_U_SEED + statement + c_enc).digest()
    u = [challenge(DOMAIN_U + u_seed + struct.pack("<I", j)) for j in range(n)]

    c_bar = sub(msm([(1, cj) for cj in cs]), msm([(1, hi) for hi in hs]))
    prod_u = 1
    for uj in u:
        prod_u = prod_u * uj % L
    c_hat = sub(chat[n - 1], mul(prod_u, h))
    t1 = msm([(c, c_bar), (s1, g)])
    t2 = msm([(c, c_hat), (s2, g)])
    t3 = msm([(c * u[j], cs[j]) for j in range(n)] + [(s_prime[i], hs[i]) for i in range(n)] + [(s3, g)])
    t4a = msm([(c * u[j], inp[j][0]) for j in range(n)] + [(s_prime[i], out[i][0]) for i in range(n)] + [(L - s4, g)])
    t4b = msm([(c * u[j], inp[j][1]) for j in range(n)] + [(s_prime[i], out[i][1]) for i in range(n)] + [(L - s4, key)])
    links = [h] + chat  # Ĉ_0 = H
    t_hat = [msm([(c, links[i + 1]), (s_hat[i], g), (s_prime[i], links[i])]) for i in range(n)]
    ts = [encode_point(t) for t in (t1, t2, t3, t4a, t4b)]
    t_hat_enc = [encode_point(t) for t in t_hat]
    recomputed = challenge(
        DOMAIN_SHUFFLE_CHALLENGE + statement + c_enc + chat_enc + b"".join(ts) + b"".join(t_hat_enc)
    )
    if trace is not None:
        trace.update(
            statement_digest=statement.hex(),
            u_seed=u_seed.hex(),
            u=[enc_scalar(x).hex() for x in u],
            t1_t2_t3_t4a_t4b=[t.hex() for t in ts],
            t_hat=[t.hex() for t in t_hat_enc],
            challenge=enc_scalar(recomputed).hex(),
        )
    if recomputed != c:
        raise Invalid("the shuffle proof does not verify")
    return out_bytes


def verify_decryption_share(ctx, slot, key_share_point, key_share_enc, a, b_enc_pair, message, t1=None):
    """SPEC 5.7. `b_enc_pair` is the ciphertext's 64 bytes (A || B); `t1`,
    T'_1's encoding when already known (it does not depend on the slot).
    Returns (D, T'_1 encoding, T'_2 encoding)."""
    if len(message) != 96:
        raise Invalid(f"decryption share must be 96 bytes, got {len(message)}")
    d = decode_point(message[:32], "decryption share")
    c = decode_scalar(message[32:64], "decryption share proof challenge")
    z = decode_scalar(message[64:], "decryption share proof response")
    if t1 is None:
        t1 = encode_point(msm([(z, generator(0)), (L - c, key_share_point)]))
    t2 = encode_point(msm([(z, a), (L - c, d)]))
    x = DOMAIN_DECRYPTION_SHARE + ctx + struct.pack("<I", slot) + key_share_enc + b_enc_pair + message[:32] + t1 + t2
    if challenge(x) != c:
        raise Invalid("the decryption share proof does not verify")
    return d, t1, t2


def open_card(b_point, shares, card_points):
    """SPEC 5.7: M = B − Σ D_s, looked up among the card points (encodings,
    a list in catalogue order or a dict from catalogue index)."""
    m = b_point
    for d in shares:
        m = sub(m, d)
    enc = encode_point(m)
    for i, cp in card_points.items() if isinstance(card_points, dict) else enumerate(card_points):
        if cp == enc:
            return i
    raise Invalid(f"the opened point is none of the deck's {len(card_points)} cards")


def check_release(secret_bytes, key_share_point):
    """SPEC 5.9."""
    x = decode_scalar(secret_bytes, "released secret")
    if not equal(mul(x, generator(0)), key_share_point):
        raise Invalid("the released secret does not match the published key share")
    return x


# ---------------------------------------------------------------- deal.json

class Failure(Exception):
    """A vector that does not check: the message names the case and the step."""


def expect(cond, case, step):
    if not cond:
        raise Failure(f"{case}: {step}")


def hx(s):
    return bytes.fromhex(s)


def check_deal(doc):
    """Every case of vectors/deal.json. Returns the number of checks passed."""
    checks = 0
    game_id = hx(doc["game_id"])
    for g in doc["generators"]:
        case = f"generator {g['index']}"
        inp = DOMAIN_GENERATOR + struct.pack("<I", g["index"])
        expect(inp.hex() == g["input"], case, "hash-to-curve input")
        expect(hashlib.sha512(inp).hexdigest() == g["sha512"], case, "SHA-512 digest")
        expect(encode_point(generator(g["index"])) == hx(g["point"]), case, "point")
        checks += 3
    card_points = []
    for cd in doc["cards"]:
        case = f"card {cd['index']}"
        inp = DOMAIN_CARD + game_id + struct.pack("<I", cd["index"])
        expect(inp.hex() == cd["input"], case, "hash-to-curve input")
        enc = encode_point(card_point(game_id, cd["index"]))
        expect(enc == hx(cd["point"]), case, "point")
        expect(cd["index"] == len(card_points), case, "cards listed in catalogue order")
        card_points.append(enc)
        checks += 2
    keys = {}
    for ks in doc["key_shares"]:
        case = f"key share of seat {ks['seat'] + 1}"
        ctx = context(game_id, 0, ks["seat"])
        expect(ctx.hex() == ks["context"], case, "context bytes")
        try:
            x_point, t_enc = verify_key_share(ctx, hx(ks["message"]))
        except Invalid as e:
            raise Failure(f"{case}: proof: {e}")
        expect(t_enc == hx(ks["commitment"]), case, "recomputed commitment T")
        try:
            check_release(hx(ks["secret"]), x_point)
        except Invalid as e:
            raise Failure(f"{case}: released secret: {e}")
        keys[ks["seat"]] = (x_point, hx(ks["message"])[:32])
        checks += 4
    key = deck_key([keys[s][0] for s in sorted(keys)])
    key_enc = encode_point(key)
    expect(key_enc == hx(doc["deck_key"]), "deck key", "sum of the key shares")
    open_deck = open_deck_bytes(game_id, range(len(card_points)))
    expect(open_deck == hx(doc["open_deck"]), "open deck", "encoding of cards 0..n-1")
    checks += 2
    deck = open_deck
    for sh in doc["shuffles"]:
        case = f"shuffle of seat {sh['seat'] + 1}"
        ctx = context(game_id, 0, sh["seat"])
        expect(ctx.hex() == sh["context"], case, "context bytes")
        expect(hx(sh["input"]) == deck, case, "input is the previous output")
        trace = {}
        try:
            deck = verify_shuffle(ctx, key, key_enc, deck, hx(sh["message"]), trace)
        except Invalid as e:
            raise Failure(f"{case}: proof: {e}")
        for name in ("statement_digest", "u_seed", "u", "t1_t2_t3_t4a_t4b", "t_hat", "challenge"):
            expect(trace[name] == sh[name], case, f"intermediate value {name}")
        checks += 9
    expect(deck == hx(doc["final_deck"]), "final deck", "the last shuffle's output")
    final = decode_deck(deck)
    for op in doc["openings"]:
        case = f"opening of slot {op['slot']}"
        slot = op["slot"]
        ct = deck[2 + 64 * slot : 66 + 64 * slot]
        expect(ct == hx(op["ciphertext"]), case, "ciphertext")
        a, b = final[slot]
        ds = []
        for share in op["shares"]:
            scase = f"{case}, share of seat {share['seat'] + 1}"
            ctx = context(game_id, 0, share["seat"])
            expect(ctx.hex() == share["context"], scase, "context bytes")
            x_point, x_enc = keys[share["seat"]]
            try:
                d, t1, t2 = verify_decryption_share(ctx, slot, x_point, x_enc, a, ct, hx(share["share"]))
            except Invalid as e:
                raise Failure(f"{scase}: proof: {e}")
            expect(t1 == hx(share["t1"]) and t2 == hx(share["t2"]), scase, "recomputed T1, T2")
            ds.append(d)
            checks += 3
        try:
            card = open_card(b, ds, card_points)
        except Invalid as e:
            raise Failure(f"{case}: open: {e}")
        expect(card == op["card"], case, "opened card")
        checks += 1
    for rj in doc["rejections"]:
        case = f"rejection '{rj['case']}'"
        ctx = hx(rj["context"])
        try:
            if rj["kind"] == "key share":
                verify_key_share(ctx, hx(rj["message"]))
            elif rj["kind"] == "shuffle":
                verify_shuffle(ctx, key, key_enc, hx(rj["input"]), hx(rj["message"]))
            else:
                raise Failure(f"{case}: unknown kind {rj['kind']!r}")
        except Invalid as e:
            # The rule must be the one named; the crate's wording of the
            # canonical-encoding errors is matched on its stable prefix.
            expect(str(e) == rj["rule"] or rj["rule"].startswith(str(e)), case, f"rule: got {e!r}, want {rj['rule']!r}")
            checks += 1
            continue
        raise Failure(f"{case}: accepted, but must fail with {rj['rule']!r}")
    return checks


# ---------------------------------------------------------------- SPEC 3.1, 3.4, 3.8

class Reader:
    """The postcard wire format of SPEC 3.1."""

    def __init__(self, data, what):
        self.data = data
        self.off = 0
        self.what = what

    def fixed(self, n):
        if self.off + n > len(self.data):
            raise Invalid(f"{self.what} ends inside a field")
        out = self.data[self.off : self.off + n]
        self.off += n
        return out

    def u8(self):
        return self.fixed(1)[0]

    def varint(self, max_bytes):
        value = 0
        for i in range(max_bytes):
            byte = self.u8()
            value |= (byte & 0x7F) << (7 * i)
            if not byte & 0x80:
                return value
        raise Invalid(f"{self.what} holds a varint longer than {max_bytes} bytes")

    def u32(self):
        return self.varint(5)

    def u64(self):
        return self.varint(10)

    def bytes_(self):
        return self.fixed(self.u64())

    def string(self):
        try:
            return self.bytes_().decode("utf-8")
        except UnicodeDecodeError:
            raise Invalid(f"{self.what} holds a string that is not UTF-8")

    def option(self, inner):
        tag = self.u8()
        if tag == 0:
            return None
        if tag == 1:
            return inner()
        raise Invalid(f"{self.what} holds an option tag {tag}")

    def vec(self, inner):
        return [inner() for _ in range(self.u64())]

    def end(self):
        if self.off != len(self.data):
            raise Invalid(f"{self.what} has {len(self.data) - self.off} bytes left over")


BODY_NAMES = [
    "Action", "Reveal", "SecretCommit", "SecretOpen", "StallClaim", "Resign", "SeedOpening",
    "ChainContinuation", "KeyShare", "Shuffle", "Shares", "ActionRevealing", "KeyRelease",
    "ShuffleFromPile",
]


def read_body(r):
    variant = r.u32()
    reveal = lambda: (r.u64(), r.fixed(32))  # noqa: E731
    if variant == 0:
        return {"kind": "Action", "action": r.bytes_(), "reveal": r.option(reveal)}
    if variant == 1:
        return {"kind": "Reveal", "reveal": reveal()}
    if variant == 2:
        return {"kind": "SecretCommit", "index": r.u64(), "commitment": r.fixed(32)}
    if variant == 3:
        return {"kind": "SecretOpen", "index": r.u64(), "choice": r.bytes_(), "nonce": r.fixed(32)}
    if variant == 4:
        return {"kind": "StallClaim", "accused": r.u8(), "position": r.u64()}
    if variant == 5:
        return {"kind": "Resign"}
    if variant == 6:
        return {"kind": "SeedOpening", "seed": r.fixed(32)}
    if variant == 7:
        return {"kind": "ChainContinuation", "first_event": r.u64(), "length": r.u64(), "commitment": r.fixed(32)}
    if variant == 8:
        return {"kind": "KeyShare", "message": r.fixed(96)}
    if variant == 9:
        return {"kind": "Shuffle", "epoch": r.u32(), "message": r.bytes_()}
    if variant == 10:
        return {"kind": "Shares", "shares": r.vec(lambda: r.fixed(96))}
    if variant == 11:
        return {
            "kind": "ActionRevealing",
            "action": r.bytes_(),
            "reveal": r.option(reveal),
            "shares": r.vec(lambda: r.fixed(96)),
        }
    if variant == 12:
        return {"kind": "KeyRelease", "secret": r.fixed(32)}
    if variant == 13:
        return {"kind": "ShuffleFromPile", "epoch": r.u32(), "pile": r.vec(r.u32), "message": r.bytes_()}
    raise Invalid(f"envelope body variant {variant} is unknown")


def read_signed(r):
    env = {
        "game_id": r.fixed(32),
        "seat": r.u8(),
        "seq": r.u64(),
        "prev": r.fixed(32),
        "position": r.u64(),
        "state_hash": r.fixed(32),
    }
    env["body"] = read_body(r)
    env["signature"] = r.bytes_()
    if len(env["signature"]) != 64:
        raise Invalid("an envelope signature must be 64 bytes")
    return env


def read_proposal(r):
    prop = {"protocol": r.u32(), "game": r.string(), "options": r.bytes_()}
    prop["seats"] = r.vec(lambda: {"key": r.fixed(32), "name": r.string(), "chain_commitment": r.fixed(32), "chain_length": r.u64()})
    prop["nonce"] = r.fixed(32)
    return prop


MAX_FRAME = 1 << 20  # SPEC 3.8
MAX_ENVELOPE = 24 * 1024  # SPEC 3.1


def read_transcript(data):
    """SPEC 3.8: the frames of a transcript file, as (kind, value, payload)."""
    if len(data) < 12 or data[:8] != b"RTSCRIPT":
        raise Invalid("a transcript starts with RTSCRIPT")
    if struct.unpack_from("<I", data, 8)[0] != 1:
        raise Invalid("transcript version must be 1")
    off = 12
    frames = []
    while off + 4 <= len(data):
        length = struct.unpack_from("<I", data, off)[0]
        if length > MAX_FRAME or off + 4 + length + 4 > len(data):
            break  # a torn tail
        payload = data[off + 4 : off + 4 + length]
        crc = struct.unpack_from("<I", data, off + 4 + length)[0]
        if zlib.crc32(payload) != crc:
            break
        off += 8 + length
        r = Reader(payload, f"frame {len(frames)}")
        kind = r.u32()
        body_start = r.off
        if kind == 0:
            value = read_proposal(r)
        elif kind == 1:
            value = {"game_id": r.fixed(32), "seat": r.u8(), "signature": r.bytes_()}
        elif kind == 2:
            value = read_signed(r)
        else:
            raise Invalid(f"frame {len(frames)} has an unknown kind {kind}")
        r.end()
        if kind == 2:
            value["encoded"] = payload[body_start:]  # postcard(Signed)
            if len(value["encoded"]) > MAX_ENVELOPE:
                raise Invalid(f"frame {len(frames)} holds an envelope longer than 24 KiB")
        frames.append((kind, value, payload))
    if off != len(data):
        raise Invalid(f"transcript has a torn tail of {len(data) - off} bytes")
    return frames


# ---------------------------------------------------------------- ed25519 (RFC 8032), SPEC 3.2

ED_BASE_Y = 4 * inv(5) % P


def ed_decompress(b):
    """RFC 8032 5.1.3; None when b encodes no point (or not canonically)."""
    if len(b) != 32:
        return None
    y = int.from_bytes(b, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= P:
        return None
    u = (y * y - 1) % P
    v = (D * y * y + 1) % P
    was_square, x = sqrt_ratio_m1(u, v)
    if not was_square:
        return None
    if x == 0 and sign:
        return None
    if (x & 1) != sign:
        x = P - x
    return (x, y, 1, x * y % P)


def ed_compress(p1):
    x, y, z, _ = p1
    zi = inv(z)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


_, _ED_BASE_X = sqrt_ratio_m1((ED_BASE_Y * ED_BASE_Y - 1) % P, (D * ED_BASE_Y * ED_BASE_Y + 1) % P)
ED_BASE = (_ED_BASE_X, ED_BASE_Y, 1, _ED_BASE_X * ED_BASE_Y % P)  # x is even: "positive"


def _small_order(p1):
    q = p1
    for _ in range(3):
        q = add(q, q)
    return q[0] % P == 0 and (q[1] - q[2]) % P == 0


def _mul_full(k, p1):
    """k·P without reducing k mod ℓ (edwards25519 has a cofactor)."""
    result, addend = IDENTITY, p1
    while k:
        if k & 1:
            result = add(result, addend)
        addend = add(addend, addend)
        k >>= 1
    return result


def ed25519_verify_strict(public, message, signature):
    """SPEC 3.2: RFC 8032 verification, canonical s, no small-order R or key,
    and R must be exactly the encoding of s·B − k·A."""
    if len(signature) != 64:
        return False
    a = ed_decompress(public)
    r = ed_decompress(signature[:32])
    if a is None or r is None or _small_order(a) or _small_order(r):
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % L
    check = add(_mul_full(s, ED_BASE), neg(_mul_full(k, a)))
    return ed_compress(check) == signature[:32]


# ---------------------------------------------------------------- ChaCha20 (RFC 8439), SPEC 2.6 and 5.16

def _rotl(v, c):
    return ((v << c) & 0xFFFFFFFF) | (v >> (32 - c))


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF
    s[b] = _rotl(s[b] ^ s[c], 7)


def chacha20_block(key, counter):
    """One 64-byte block, nonce zero, as SPEC 2.6 seeds its streams."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574, *struct.unpack("<8I", key), counter & 0xFFFFFFFF, counter >> 32, 0, 0]
    w = state[:]
    for _ in range(10):
        _quarter(w, 0, 4, 8, 12)
        _quarter(w, 1, 5, 9, 13)
        _quarter(w, 2, 6, 10, 14)
        _quarter(w, 3, 7, 11, 15)
        _quarter(w, 0, 5, 10, 15)
        _quarter(w, 1, 6, 11, 12)
        _quarter(w, 2, 7, 8, 13)
        _quarter(w, 3, 4, 9, 14)
    return struct.pack("<16I", *[(a + b) & 0xFFFFFFFF for a, b in zip(w, state)])


def secret_from_stream(seed):
    """SPEC 5.16: the first non-zero 64-byte block of the stream, mod ℓ."""
    counter = 0
    while True:
        x = int.from_bytes(chacha20_block(seed, counter), "little") % L
        if x:
            return x
        counter += 1


# ---------------------------------------------------------------- table-private.json

DOMAIN_GENESIS = b"roundtable/genesis/v1"
DOMAIN_ACCEPT = b"roundtable/accept/v1"
DOMAIN_ENVELOPE = b"roundtable/envelope/v1"
DOMAIN_ENVELOPE_HASH = b"roundtable/envelope-hash/v1"
DOMAIN_DEAL_ROOT = b"roundtable/deal-root/v1"
DOMAIN_DEAL_SECRET = b"roundtable/deal-secret/v1"


def envelope_hash(encoded_signed):
    return hashlib.sha256(DOMAIN_ENVELOPE_HASH + encoded_signed).digest()


def find_slot(game_id, seat, key_share, decks, message, case, likely=()):
    """A share's proof binds its (epoch, slot), which the message does not
    carry (the game's request names it, SPEC 5.12, 5.13). A verifier without
    the game's rules finds it by trial: exactly one slot's check can pass.
    The (epoch, slot) pairs of `likely` are tried first (a deal's slots
    follow each other, and every seat shares the same ones)."""
    t1 = None
    if len(message) == 96:
        try:
            z = decode_scalar(message[64:], "decryption share proof response")
            c = decode_scalar(message[32:64], "decryption share proof challenge")
        except Invalid as e:
            raise Failure(f"{case}: decode: {e}")
        t1 = encode_point(msm([(z, generator(0)), (L - c, key_share[0])]))
    tried = set()
    everything = [(epoch, slot) for epoch in sorted(decks) for slot in range(len(decks[epoch][1]))]
    for epoch, slot in list(likely) + everything:
        if (epoch, slot) in tried or epoch not in decks or slot >= len(decks[epoch][1]):
            continue
        tried.add((epoch, slot))
        deck_bytes, deck = decks[epoch]
        ctx = context(game_id, epoch, seat)
        ct = deck_bytes[2 + 64 * slot : 66 + 64 * slot]
        try:
            d, _, _ = verify_decryption_share(ctx, slot, key_share[0], key_share[1], deck[slot][0], ct, message, t1)
        except Invalid as e:
            if "does not verify" in str(e):
                continue
            raise Failure(f"{case}: decode: {e}")
        return epoch, slot, d
    raise Failure(f"{case}: proof: the decryption share proof does not verify for any slot of any deck")


class Unknown(Exception):
    """What the transcript lacks to check a step (a pile it does not name):
    the message names the step; nobody is blamed for it."""


class Verified:
    """What `verify_frames` found: the game, its checked keys, decks and
    shares, who was dealt what, the released secrets, and the notes of what
    it could not tell (which blame no one)."""

    def __init__(self):
        self.checks = 0
        self.unknown = []  # steps it could not check for want of data
        self.notes = []  # what it could not tell, blaming no one
        self.key_shares = {}  # seat -> (X, its encoding)
        self.decks = {}  # epoch -> (deck bytes, decoded deck)
        self.piles = {}  # epoch -> the pile its first shuffle names
        self.shares = {}  # (epoch, slot) -> {seat: D}
        self.requests = {}  # position -> {seat: [(epoch, slot)]}
        self.request_at = {}  # position -> index of its first Shares envelope
        self.revealed = []  # (seat, epoch, slot, card) played face up
        self.dealt = {}  # seat -> [(epoch, slot)]
        self.public = []  # (epoch, slot) revealed to all
        self.secrets = {}  # seat -> released secret
        self.card_points = {}  # epoch -> the encodings of its possible cards


def read_frames(data):
    try:
        return read_transcript(data)
    except Invalid as e:
        raise Failure(f"transcript: decode: {e}")


def verify_frames(frames, authenticate=True):
    """Check a transcript's frames from the messages alone (SPEC 3.1, 3.3,
    3.4, 3.8, 5.5-5.15): the game id computed from the proposal, every
    acceptance and envelope signature, each seat's hash-linked sequence,
    every key share, every epoch's shuffles from the open deck of the pile
    its first shuffle names, every decryption share (its slot found by
    trial), every card played face up, and every key release. Raises Failure
    naming the step and the seat at the first check that fails; records in
    `unknown` what it lacks the data to check. `authenticate=False` skips
    the envelopes' signatures and links, only so that the tampering
    self-test can reach the proofs behind them."""
    v = Verified()
    expect(frames and frames[0][0] == 0, "transcript", "the first frame is the proposal")
    proposal, payload = frames[0][1], frames[0][2]
    # The frame's kind (varint 0, one byte) precedes postcard(Proposal).
    game_id = hashlib.sha256(DOMAIN_GENESIS + payload[1:]).digest()
    v.game_id, v.proposal = game_id, proposal
    seats = proposal["seats"]
    keys = [s["key"] for s in seats]
    expect(keys == sorted(keys) and len(set(keys)) == len(keys), "genesis", "seats in ascending key order")
    v.checks += 1
    accepted = set()
    envelopes = []
    for kind, value, _ in frames[1:]:
        if kind == 1:
            seat = value["seat"]
            case = f"acceptance of seat {seat + 1}"
            expect(value["game_id"] == game_id and seat < len(seats), case, "game id and seat")
            expect(ed25519_verify_strict(keys[seat], DOMAIN_ACCEPT + game_id + bytes([seat]), value["signature"]), case, "signature")
            accepted.add(seat)
            v.checks += 2
        elif kind == 2:
            envelopes.append(value)
        else:
            raise Failure("transcript: a second proposal")
    expect(accepted == set(range(len(seats))), "genesis", "one acceptance per seat")
    v.envelopes = envelopes

    # Signatures and each seat's hash-linked sequence (SPEC 3.4). A log in
    # arrival order holds the same envelopes as the canonical file, so the
    # links are checked in `seq` order.
    by_seat = {}
    for env in envelopes:
        seat, seq = env["seat"], env["seq"]
        case = f"envelope seat {seat + 1} seq {seq} ({env['body']['kind']})"
        expect(env["game_id"] == game_id and seat < len(seats), case, "game id and seat")
        if authenticate:
            unsigned = env["encoded"][:-65]
            expect(ed25519_verify_strict(keys[seat], DOMAIN_ENVELOPE + unsigned, env["signature"]), case, "signature")
        env["hash"] = envelope_hash(env["encoded"])
        by_seat.setdefault(seat, []).append(env)
        v.checks += 2
    for seat, own in by_seat.items():
        prev = bytes(32)
        for seq, env in enumerate(sorted(own, key=lambda e: e["seq"])):
            case = f"envelope seat {seat + 1} seq {env['seq']} ({env['body']['kind']})"
            if authenticate:
                expect(env["seq"] == seq and env["prev"] == prev, case, "seq and prev link")
            prev = env["hash"]
            v.checks += 1

    # Key shares (5.5, 5.11): context (game id, epoch 0, author). The
    # transcript lists one request's envelopes in (seat, seq) order (5.15),
    # so every key share is taken before any shuffle is checked.
    key_shares = {}
    for env in envelopes:
        if env["body"]["kind"] == "KeyShare":
            case = f"key share of seat {env['seat'] + 1}"
            expect(env["seat"] not in key_shares, case, "sent once per game")
            try:
                x_point, _ = verify_key_share(context(game_id, 0, env["seat"]), env["body"]["message"])
            except Invalid as e:
                raise Failure(f"{case}: proof: {e}")
            key_shares[env["seat"]] = (x_point, env["body"]["message"][:32])
            v.checks += 1
    v.key_shares = key_shares
    v.dealt = {s: [] for s in range(len(seats))}
    if not key_shares:
        return v  # a game without private cards
    try:
        key = deck_key([key_shares[s][0] for s in sorted(key_shares)])
    except Invalid as e:
        raise Failure(f"deck key: {e}")
    key_enc = encode_point(key)

    # Key releases (5.9, 5.14) first: a resigned seat's shares are computed
    # from its secret, not sent.
    for env in envelopes:
        if env["body"]["kind"] == "KeyRelease":
            case = f"key release of seat {env['seat'] + 1}"
            expect(env["seat"] in key_shares, case, "the seat holds part of the key")
            expect(env["seat"] not in v.secrets, case, "one release per seat")
            try:
                v.secrets[env["seat"]] = check_release(env["body"]["secret"], key_shares[env["seat"]][0])
            except Invalid as e:
                raise Failure(f"{case}: {e}")
            v.checks += 1

    verify_shuffles(v, game_id, key, key_enc)
    verify_shares(v, game_id)
    tell_requests(v)
    return v


def verify_shuffles(v, game_id, key, key_enc):
    """5.6, 5.11: per epoch in seat order, the first (`ShuffleFromPile`) on
    the open deck of the pile it names, each next one on the previous
    output. An epoch whose first shuffle names no pile (a transcript of an
    older version) has every later shuffle checked all the same; only the
    first is left unknown."""
    shuffles = {}
    for env in v.envelopes:
        if env["body"]["kind"] in ("Shuffle", "ShuffleFromPile"):
            shuffles.setdefault(env["body"]["epoch"], []).append(env)
    for epoch in sorted(shuffles):
        chain = sorted(shuffles[epoch], key=lambda e: e["seat"])
        seats_in_order = [e["seat"] for e in chain]
        expect(len(set(seats_in_order)) == len(chain), f"epoch {epoch}", "one shuffle per seat")
        deck = None
        for i, env in enumerate(chain):
            case = f"shuffle of seat {env['seat'] + 1}, epoch {epoch}"
            expect(env["seat"] in v.key_shares, case, "the seat holds part of the key")
            named = env["body"].get("pile")
            if i == 0:
                if named is None:
                    v.unknown.append(
                        f"shuffle of seat {env['seat'] + 1}, epoch {epoch}: pile unknown "
                        "(the epoch's first shuffle names no pile, so its input deck is not in the transcript)"
                    )
                else:
                    expect(0 < len(named) <= MAX_DECK_SIZE, case, f"a pile of 1 to {MAX_DECK_SIZE} cards")
                    expect(all(c < 2**32 for c in named), case, "card indices are u32")
                    v.piles[epoch] = named
                    deck = open_deck_bytes(game_id, named)
            else:
                expect(named is None, case, "only the first shuffle of an epoch names a pile")
            message = env["body"]["message"]
            if deck is None:
                # The pile is unknown: the output is still the next input.
                try:
                    m = struct.unpack_from("<H", message)[0]
                    deck = message[: 2 + 64 * m]
                    decode_deck(deck, "shuffle output deck")
                except (Invalid, struct.error) as e:
                    raise Failure(f"{case}: decode: {e}")
                continue
            try:
                deck = verify_shuffle(context(game_id, epoch, env["seat"]), key, key_enc, deck, message)
            except Invalid as e:
                raise Failure(f"{case}: proof: {e}")
            v.checks += 1
        v.decks[epoch] = (deck, decode_deck(deck))


def cards_of(v, epoch):
    """The card points a slot of `epoch` can open to, by catalogue index: the
    cards of its pile (a shuffle only permutes them, 5.6), or, when the pile
    is unknown, every index below 512 (5.2)."""
    if epoch not in v.card_points:
        indices = set(v.piles[epoch]) if epoch in v.piles else range(MAX_DECK_SIZE)
        v.card_points[epoch] = {i: encode_point(card_point(v.game_id, i)) for i in sorted(indices)}
    return v.card_points[epoch]


def share_of(v, seat, epoch, slot):
    """Seat's decryption share of a slot: the checked one it sent, or x·A
    from its released secret (5.14)."""
    have = v.shares.get((epoch, slot), {})
    if seat in have:
        return have[seat]
    if seat in v.secrets:
        return mul(v.secrets[seat], v.decks[epoch][1][slot][0])
    return None


def verify_shares(v, game_id):
    """5.7, 5.12, 5.13: every decryption share in `Shares` and
    `ActionRevealing` bodies, its (epoch, slot) found by trial, and every
    card played face up opened from all seats' shares."""
    hint = []  # the slots most likely next: deals take consecutive slots
    for index, env in enumerate(v.envelopes):
        body = env["body"]
        if body["kind"] not in ("Shares", "ActionRevealing"):
            continue
        seat = env["seat"]
        expect(seat in v.key_shares, f"shares of seat {seat + 1}", "the seat holds part of the key")
        handles = []
        same_position = v.requests.get(env["position"], {})
        for i, msg in enumerate(body["shares"]):
            case = f"{body['kind']} of seat {seat + 1} seq {env['seq']}, share {i}"
            likely = [h[i] for h in same_position.values() if len(h) > i] + hint
            epoch, slot, d = find_slot(game_id, seat, v.key_shares[seat], v.decks, msg, case, likely)
            hint = [(epoch, slot + 1)]
            prior = v.shares.setdefault((epoch, slot), {}).get(seat)
            expect(prior is None or encode_point(prior) == encode_point(d), case, "one share per seat and slot")
            v.shares[(epoch, slot)][seat] = d
            handles.append((epoch, slot))
            v.checks += 1
        if body["kind"] == "Shares":
            v.requests.setdefault(env["position"], {})[seat] = handles
            v.request_at.setdefault(env["position"], index)
            continue
        opened = []
        for epoch, slot in handles:
            case = f"card played by seat {seat + 1} from slot {slot} of epoch {epoch}"
            ds = [share_of(v, s, epoch, slot) for s in sorted(v.key_shares)]
            expect(all(d is not None for d in ds), case, "every seat's share is in")
            try:
                card = open_card(v.decks[epoch][1][slot][1], ds, cards_of(v, epoch))
            except Invalid as e:
                raise Failure(f"{case}: open: {e}")
            v.revealed.append((seat, epoch, slot, card))
            opened.append(card)
            v.checks += 1
        if v.proposal["game"] == "hands":
            # SPEC 5.13: Hands' one claim, Play { handle, card }.
            case = f"ActionRevealing of seat {seat + 1} seq {env['seq']}"
            r = Reader(body["action"], case)
            try:
                variant, claim = r.u32(), (r.u32(), r.u32())
                claimed_card = r.u32()
                r.end()
            except Invalid as e:
                raise Failure(f"{case}: Hands action: {e}")
            expect(variant == 1 and [claim] == handles, case, "the share is for the handle the action plays")
            expect(claimed_card == opened[0], case, f"the claimed card {claimed_card} must be the opened card {opened[0]}")
            v.checks += 2


def tell_requests(v):
    """Who was dealt what (5.12): a deal asks shares of every key holder
    that has not released its key but the receiver; a reveal asks them of
    every such key holder. A seat that resigned released its key: from its
    `Resign` on its shares are computed, not sent. Where the senders fit
    neither rule, the request is not known, and no one is blamed."""
    resigned_at = {}
    for index, env in enumerate(v.envelopes):
        if env["body"]["kind"] == "Resign":
            resigned_at.setdefault(env["seat"], index)
    for position in sorted(v.requests):
        at = v.request_at[position]
        live = {s for s in v.key_shares if resigned_at.get(s, len(v.envelopes)) > at}
        senders = set(v.requests[position])
        missing = live - senders
        slot_lists = [v.requests[position][s] for s in sorted(senders)]
        case = f"shares at input {position}"
        expect(all(sorted(h) == sorted(slot_lists[0]) for h in slot_lists), case, "every seat shares the same slots")
        if len(missing) == 1 and not senders - live:
            v.dealt[missing.pop()].extend(slot_lists[0])
        elif not missing and not senders - live:
            v.public.extend(slot_lists[0])
        else:
            v.notes.append(f"{case}: neither a deal nor a reveal by who sent shares (5.12); its slots' receiver is not known")
    for seat, epoch, slot, _ in v.revealed:
        if not v.notes:
            expect((epoch, slot) in v.dealt[seat], f"card played by seat {seat + 1} from slot {slot}", "the slot was dealt to that seat")


def open_hands(v):
    """With every key released (5.9), open every dealt slot: each must be a
    card of its epoch's pile, and a slot played face up the card played."""
    order = sorted(v.key_shares)
    played = {(e, s): c for _, e, s, c in v.revealed}
    hands = {}
    for seat in sorted(v.dealt):
        opened = []
        for epoch, slot in v.dealt[seat]:
            case = f"hand of seat {seat + 1}"
            a, b = v.decks[epoch][1][slot]
            ds = [mul(v.secrets[s], a) for s in order]
            for s, d in v.shares.get((epoch, slot), {}).items():
                expect(encode_point(d) == encode_point(ds[order.index(s)]), case, f"published share of seat {s + 1} for slot {slot} is x·A")
            try:
                card = open_card(b, ds, cards_of(v, epoch))
            except Invalid as e:
                raise Failure(f"{case}: slot {slot}: {e}")
            if epoch in v.piles:
                expect(card in v.piles[epoch], case, f"slot {slot} of epoch {epoch} opens to card {card}, which is not in its pile")
            if (epoch, slot) in played:
                expect(played[(epoch, slot)] == card, case, f"slot {slot} opens to the card played from it")
            opened.append({"epoch": epoch, "slot": slot, "card": card})
            v.checks += 1
        hands[seat] = opened
    return hands


def check_table_private(doc, authenticate=True):
    """Decode the transcript of vectors/table-private.json (SPEC 3.1, 3.4,
    3.8), verify every signature, link and private proof in it (SPEC 5.5-5.9,
    5.11-5.15), and open every hand it dealt; then compare with what the
    vector lists. Returns (checks, summary)."""
    game_id = hx(doc["game_id"])
    v = verify_frames(read_frames(hx(doc["file"])), authenticate)
    expect(v.game_id == game_id, "genesis", "game id = SHA256(domain || proposal)")
    if v.unknown:
        raise Unknown(v.unknown[0])
    envelopes = v.envelopes
    for body in doc["bodies"] if authenticate else []:
        case = f"listed {body['kind']} body (seat {body['seat'] + 1} seq {body['seq']})"
        match = [e for e in envelopes if e["seat"] == body["seat"] and e["seq"] == body["seq"]]
        expect(len(match) == 1, case, "is in the transcript")
        env = match[0]
        expect(BODY_NAMES.index(env["body"]["kind"]) == body["variant"], case, "variant")
        expect(env["encoded"] == hx(body["signed"]), case, "signed encoding")
        expect(env["hash"] == hx(body["hash"]), case, "envelope hash")
        v.checks += 3
    expect(not v.notes, "requests", "; ".join(v.notes))
    expect(set(v.secrets) == set(v.key_shares), "key release", "every key holder released its secret")
    hands = open_hands(v)
    for entry in doc["seats"]:
        seat = entry["seat"]
        case = f"hand of seat {seat + 1}"
        expect(v.secrets[seat] == decode_scalar(hx(entry["released_secret"]), "released secret"), case, "released secret")
        seed = [e["body"]["seed"] for e in envelopes if e["seat"] == seat and e["body"]["kind"] == "SeedOpening"]
        expect(seed == [hx(entry["chain_seed"])], case, "chain seed opened in the transcript")
        root = hashlib.sha256(DOMAIN_DEAL_ROOT + seed[0]).digest()
        expect(root == hx(entry["deal_root"]), case, "deal root (5.16)")
        stream_seed = hashlib.sha256(DOMAIN_DEAL_SECRET + root).digest()
        expect(stream_seed == hx(entry["secret_stream_seed"]), case, "secret stream seed (5.16)")
        expect(secret_from_stream(stream_seed) == v.secrets[seat], case, "released secret drawn from the secret stream (5.16)")
        expect(hands[seat] == entry["hand"], case, f"opened {hands[seat]}, listed {entry['hand']}")
    return v.checks, f"{len(envelopes)} envelopes, {len(v.decks)} deck(s) of {len(v.decks[0][1])} cards, hands opened"


def check_resignation(path):
    """SPEC 5.12 with a key released mid-game (crypto review F8): in the
    fixture a seat resigns and releases its key, so the show-down's reveal
    is sent by the other seats only. Told by who sent shares without
    counting the resigned seat, it is a reveal; counting it, it would be a
    deal to that seat of slots already dealt."""
    case = "hands-resigned.rts"
    v, _ = check_transcript_file(path)
    resigned = {e["seat"] for e in v.envelopes if e["body"]["kind"] == "Resign"}
    expect(resigned and not v.unknown and not v.notes, case, f"a resignation, every request told: {v.unknown} {v.notes}")
    show_down = v.requests[max(v.requests)]
    expect(set(show_down) == set(v.key_shares) - resigned, case, "the show-down's shares come from the seats still in")
    expect(all(h in v.public for h in show_down[min(show_down)]), case, "the show-down is a reveal")
    dealt = [h for hands in v.dealt.values() for h in hands]
    expect(len(dealt) == len(set(dealt)), case, "every slot is dealt once")
    return v.checks


def check_transcript_file(path):
    """`--transcript FILE`: every signature, link, proof and key release of
    one transcript, from its messages alone. Returns (verified, summary)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Failure(f"transcript: cannot read {path}: {e}")
    v = verify_frames(read_frames(data))
    opened = ""
    if v.key_shares and set(v.secrets) == set(v.key_shares) and not v.unknown:
        hands = open_hands(v)
        opened = f", {sum(len(h) for h in hands.values())} dealt cards opened"
    decks = ", ".join(f"epoch {e}: {len(v.decks[e][1])} cards" for e in sorted(v.decks))
    summary = (
        f"game {v.game_id.hex()} ({v.proposal['game']}, {len(v.proposal['seats'])} seats): "
        f"{v.checks} checks, {len(v.envelopes)} envelopes, {len(v.decks)} deck(s) ({decks}), "
        f"{len(v.secrets)} of {len(v.key_shares)} keys released{opened}"
    )
    return v, summary


# ---------------------------------------------------------------- tampering

def _flip(hex_value, byte_index, bit=1):
    b = bytearray(hx(hex_value))
    b[byte_index] ^= bit
    return b.hex()


def _edit_envelope(doc, seat, seq, edit):
    """Apply `edit` to the payload of the transcript frame that holds
    envelope (seat, seq) (in place, or by returning a new payload) and fix
    the frame's length and checksum."""
    f = bytearray(hx(doc["file"]))
    off = 12
    while off < len(f):
        length = struct.unpack_from("<I", f, off)[0]
        payload = bytearray(f[off + 4 : off + 4 + length])
        r = Reader(bytes(payload), "frame")
        if r.u32() == 2:
            env = read_signed(r)
            if env["seat"] == seat and env["seq"] == seq:
                payload = edit(payload, env) or payload
                frame = struct.pack("<I", len(payload)) + payload + struct.pack("<I", zlib.crc32(bytes(payload)))
                f[off : off + 8 + length] = frame
                doc["file"] = f.hex()
                return
        off += 8 + length
    raise AssertionError(f"no envelope {seat}/{seq} in the transcript")


def _tampered_cases(deal, table):
    """(name, check, document) triples; each document breaks one rule, so
    its check must fail. Proves the checks above are not vacuous."""
    import copy

    def mutate(doc, edit):
        doc = copy.deepcopy(doc)
        edit(doc)
        return doc

    def swap_output_slots(doc):
        sh = doc["shuffles"][1]
        m = bytearray(hx(sh["message"]))
        m[2:66], m[66:130] = m[66:130], m[2:66]
        sh["message"] = m.hex()

    def swap_hand_cards(doc):
        hands = doc["seats"]
        hands[0]["hand"][1]["card"], hands[1]["hand"][1]["card"] = hands[1]["hand"][1]["card"], hands[0]["hand"][1]["card"]

    def flip_transcript_shuffle(doc):
        f = bytearray(hx(doc["file"]))
        shuffle = hx(doc["bodies"][1]["signed"])
        start = bytes(f).index(shuffle)
        f[start + len(shuffle) - 200] ^= 1  # inside the proof's responses
        # Fix the frame's checksum, so that the signature is what catches it.
        frame_start = start - 1 - 4  # the frame variant byte, then the length
        length = struct.unpack_from("<I", f, frame_start)[0]
        payload = bytes(f[frame_start + 4 : frame_start + 4 + length])
        struct.pack_into("<I", f, frame_start + 4 + length, zlib.crc32(payload))
        doc["file"] = f.hex()

    def flip_release(doc):
        doc["key_shares"][2]["secret"] = _flip(doc["key_shares"][2]["secret"], 0)

    def in_transcript(seat, seq, edit):
        def apply(doc):
            _edit_envelope(doc, seat, seq, edit)

        return mutate(table, apply)

    def flip_at(offset_from_end):
        def edit(payload, env):
            payload[len(payload) - 65 - offset_from_end] ^= 1  # before the signature

        return edit

    def swap_pile_cards(payload, env):
        pile = env["body"]["pile"]
        named = bytes([len(pile)]) + bytes(pile)  # a small catalogue: one byte each
        at = bytes(payload).index(named) + 1
        payload[at], payload[at + 1] = payload[at + 1], payload[at]

    def drop_pile(payload, env):
        # ShuffleFromPile { epoch, pile, message } becomes Shuffle { epoch, message }.
        pile = env["body"]["pile"]
        named = bytes([13, env["body"]["epoch"], len(pile)]) + bytes(pile)
        at = bytes(payload).index(named)
        return bytearray(payload[:at] + bytes([9, env["body"]["epoch"]]) + payload[at + len(named) :])

    def claim_another_card(payload, env):
        action = env["body"]["action"]
        at = bytes(payload).index(action) + len(action) - 1  # Hands: the claimed card
        payload[at] ^= 1

    unauthenticated = lambda doc: check_table_private(doc, authenticate=False)  # noqa: E731
    cases = [
        ("key share: a flipped bit in the proof's response", check_deal,
         mutate(deal, lambda d: d["key_shares"][1].update(message=_flip(d["key_shares"][1]["message"], 64)))),
        ("shuffle: a flipped bit in a chain response", check_deal,
         mutate(deal, lambda d: d["shuffles"][2].update(message=_flip(d["shuffles"][2]["message"], len(hx(d["shuffles"][2]["message"])) - 170)))),
        ("shuffle: two output cards swapped", check_deal, mutate(deal, swap_output_slots)),
        ("decryption share: a flipped bit in the proof's challenge", check_deal,
         mutate(deal, lambda d: d["openings"][3]["shares"][1].update(share=_flip(d["openings"][3]["shares"][1]["share"], 32)))),
        ("opening: another card claimed for a slot", check_deal,
         mutate(deal, lambda d: d["openings"][0].update(card=(d["openings"][0]["card"] + 1) % len(d["cards"])))),
        ("key release: a secret that is not the key share's", check_deal, mutate(deal, flip_release)),
        ("transcript: a flipped bit inside a shuffle envelope", check_table_private, mutate(table, flip_transcript_shuffle)),
        ("transcript: two seats' cards swapped in the listed hands", check_table_private, mutate(table, swap_hand_cards)),
        # The same checks behind the signatures: a seat that signs a bad
        # proof, a bad share, a false claim or a wrong secret is caught by them.
        ("transcript, signed: a flipped bit in a key share proof", unauthenticated, in_transcript(1, 0, flip_at(1))),
        ("transcript, signed: a flipped bit in a shuffle proof", unauthenticated, in_transcript(1, 1, flip_at(40))),
        ("transcript, signed: a first shuffle that names another pile", unauthenticated, in_transcript(0, 1, swap_pile_cards)),
        ("transcript, signed: a first shuffle that names no pile", unauthenticated, in_transcript(0, 1, drop_pile)),
        ("transcript, signed: a flipped bit in a decryption share proof", unauthenticated, in_transcript(0, 2, flip_at(100))),
        ("transcript, signed: a played card claimed as another card", unauthenticated, in_transcript(0, 3, claim_another_card)),
        ("transcript, signed: a released secret that is not the seat's", unauthenticated, in_transcript(1, 8, flip_at(31))),
    ]
    expected_steps = [
        "key share of seat 2: proof: the key share proof does not verify",
        "shuffle of seat 3: proof: the shuffle proof does not verify",
        "shuffle of seat 2: proof: the shuffle proof does not verify",
        "share of seat 2: proof: the decryption share proof does not verify",
        "opening of slot 0: opened card",
        "released secret: the released secret does not match",
        "seq 1 (ShuffleFromPile): signature",
        "hand of seat 1: opened",
        "key share of seat 2: proof: the key share proof does not verify",
        "shuffle of seat 2, epoch 0: proof: the shuffle proof does not verify",
        "shuffle of seat 1, epoch 0: proof: the shuffle proof does not verify",
        "shuffle of seat 1, epoch 0: pile unknown",
        "Shares of seat 1 seq 2, share 1: proof: the decryption share proof does not verify for any slot",
        "the claimed card",
        "key release of seat 2: the released secret does not match",
    ]
    return [(name, check, doc, step) for (name, check, doc), step in zip(cases, expected_steps)]


USAGE = """usage: private_cards.py VECTORS_DIR
       private_cards.py --transcript FILE..."""


def main_transcripts(paths):
    """`--transcript FILE...`: 0 when every file checks, 1 when a check fails
    (the line names the step and the seat), 3 when none fails but a step
    could not be checked for want of data (a pile the file does not name)."""
    worst = 0
    for path in paths:
        try:
            v, summary = check_transcript_file(path)
        except Failure as e:
            print(f"FAIL {path}: {e}")
            worst = 1
            continue
        except (Invalid, KeyError, TypeError, ValueError, IndexError, struct.error) as e:
            print(f"FAIL {path}: malformed transcript: {type(e).__name__}: {e}")
            worst = 1
            continue
        for note in v.notes:
            print(f"note {path}: {note}")
        if v.unknown:
            for step in v.unknown:
                print(f"UNKNOWN {path}: {step}")
            worst = worst or 3
            continue
        print(f"ok {path}: {summary}")
    return worst


def main(argv):
    import time

    if len(argv) >= 3 and argv[1] == "--transcript":
        return main_transcripts(argv[2:])
    if len(argv) != 2 or argv[1].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    start = time.monotonic()
    docs = {}
    for name in ("deal.json", "table-private.json"):
        path = os.path.join(argv[1], name)
        try:
            with open(path, encoding="utf-8") as f:
                docs[name] = json.load(f)
        except (OSError, ValueError) as e:
            print(f"FAIL {name}: cannot read: {e}")
            return 1
    try:
        deal_checks = check_deal(docs["deal.json"])
        table_checks, summary = check_table_private(docs["table-private.json"])
        fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fixtures", "hands-resigned.rts")
        resigned_checks = check_resignation(fixture)
    except (Failure, Unknown) as e:
        print(f"FAIL {e}")
        return 1
    except (Invalid, KeyError, TypeError, ValueError, IndexError, struct.error) as e:
        print(f"FAIL malformed vector file: {type(e).__name__}: {e}")
        return 1
    caught = 0
    for name, check, doc, step in _tampered_cases(docs["deal.json"], docs["table-private.json"]):
        try:
            check(doc)
        except (Failure, Unknown) as e:
            if step not in str(e):
                print(f"FAIL tampered case '{name}' failed at another step: {e}")
                return 1
            caught += 1
            continue
        print(f"FAIL tampered case '{name}' was accepted")
        return 1
    elapsed = time.monotonic() - start
    print(
        f"ok: deal.json {deal_checks} checks, table-private.json {table_checks} checks ({summary}), "
        f"hands-resigned.rts {resigned_checks} checks, "
        f"{caught} tampered cases rejected, {elapsed:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
