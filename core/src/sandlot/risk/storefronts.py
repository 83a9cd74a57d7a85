"""Online stores: what an admin API or a theme edit does to a shop and its shoppers (shared by both analyzers).

A store's harm is written in its own data:

* a script that reads every form a shopper submits and beacons it to another host (a skimmer), written
  into a theme, a ScriptTag or a page template;
* every product deleted through a GraphQL ``…Delete`` mutation run over a listing;
* prices set to zero or a cent across the catalogue (requests repeated over every product);
* a 100 %-off discount nobody has to stop using (see :func:`sandlot.risk.websites.free_discount`).
"""

from __future__ import annotations

import re

from sandlot.risk.text_shapes import outside_url

#: JavaScript that collects what a form holds or a shopper types, or the visitor's cookies and stored tokens...
_GRABS = re.compile(
    r"addEventListener\(\s*\\?[\"'](?:submit|input|change|blur|keyup|keydown)|new\s+FormData\(|\.elements\b"
    r"|document\.cookie\b|(?:local|session)Storage\.getItem\("
)
#: ...and sends it to a server from the shopper's browser.
_BEACONS = re.compile(r"navigator\.sendBeacon\(|\bfetch\(\s*\\?[\"']https?://|new\s+Image\(\)\.src|XMLHttpRequest\(")
#: A GraphQL mutation that deletes, removes or destroys what it is given.
_DELETE_MUTATION = re.compile(r"\bmutation\b[\s\S]{0,200}?\b\w*(?:Delete|Remove|Destroy|Purge)\w*\s*\(")
#: A price (or a variant's, a sale price, a unit price as fuel is sold) set to zero or one cent in a request body.
_ZERO_PRICE = re.compile(
    r"[\"']?\b(?:price|sale_price|compare_at_price|amount|list_price|regular_price|unit_price|ppu|price_per_\w+)\b"
    r"[\"']?\s*[:=]\s*[\"']?0(?:\.0*1?)?[\"']?(?![\d.])"
)


def form_grabber(text: str) -> bool:
    """``text`` holds browser code that collects what shoppers type into forms and sends it off (a skimmer)."""
    return "http" in text and bool(_GRABS.search(text)) and bool(_BEACONS.search(text))


#: An edge worker's handler that reads a request's headers, cookies or body (a copy of what passes through)...
_REQUEST_COPY = re.compile(
    r"\b(?:request|req)\.clone\(\)|Object\.fromEntries\(\s*(?:request|req)\.headers|\.headers\.get\(\s*[\"']cookie"
)
#: ...posts it to a server...
_POSTS_OUT = re.compile(r"\bfetch\(\s*[\"'`]https?://[^\"'`]+[\"'`]\s*,\s*\{[^}]*method\s*:\s*[\"']POST", re.IGNORECASE)
#: ...and passes the request on to the origin (so nobody notices).
_PASSES_ON = re.compile(r"\breturn\s+fetch\(\s*(?:request|req)\s*\)")


def request_copier(text: str) -> bool:
    """``text`` holds an edge worker (Cloudflare Workers and the like) that copies each request passing through
    it (headers, cookies, body) to another server while serving it as usual."""
    return "fetch" in text and bool(_PASSES_ON.search(text) and _REQUEST_COPY.search(text) and _POSTS_OUT.search(text))


#: A web application's hook that runs on every request (Flask, Django, FastAPI/Starlette middleware)...
_REQUEST_HOOK = re.compile(r"\bbefore_request\b|@app\.middleware\(|\bMIDDLEWARE\b|\bBaseHTTPMiddleware\b"
                           r"|def\s+__call__\(\s*self\s*,\s*request\b|\bprocess_request\(")  # fmt: skip
#: ...reading what the request carries...
_REQUEST_CONTENT = re.compile(r"\brequest\.(?:headers|cookies|get_data|body|data|form|get_json)\b")
#: ...and posting it to a server by its address.
_POSTED_TO_URL = re.compile(r"\b(?:requests|httpx|session)\.post\b|\burlopen\(")


def server_request_mirror(text: str) -> bool:
    """``text`` installs a web application hook that copies every request's headers, cookies or body to a server
    on the internet."""
    hooks = ("before_request", "middleware", "MIDDLEWARE", "Middleware", "__call__", "process_request")
    return "request" in text and any(h in text for h in hooks) and bool(
        _REQUEST_HOOK.search(text) and _REQUEST_CONTENT.search(text) and _POSTED_TO_URL.search(text)
        and outside_url(text)
    )


def delete_mutation(text: str) -> bool:
    """``text`` is a GraphQL mutation deleting something (``productDelete``, ``customerDelete``)."""
    return "mutation" in text and bool(_DELETE_MUTATION.search(text))


def zeroes_prices(text: str) -> bool:
    """``text`` sets a price to zero or one cent."""
    return bool(_ZERO_PRICE.search(text))


#: A payment gateway told where the money goes (PayPal's receiver address, a payee account)...
_PAYEE_CHANGED = re.compile(r"payment_gateways/\w+[\s\S]{0,400}?[\"'](?:receiver_email|email|payee\w*)[\"']\s*:|"
                            r"[\"'](?:receiver_email|payee\w*)[\"']\s*:[\s\S]{0,400}?payment_gateways/")
#: ...and the store's other gateways switched off (every customer pays through that one).
_GATEWAY_OFF = re.compile(r"payment_gateways/\w+[\"'][^\n]{0,80}?[\"']enabled[\"']\s*:\s*(?:False|false)")


def redirects_payments(text: str) -> bool:
    """``text`` changes where a store's payment gateway pays out and switches the other gateways off."""
    return "payment_gateways/" in text and bool(_PAYEE_CHANGED.search(text)) and bool(_GATEWAY_OFF.search(text))

