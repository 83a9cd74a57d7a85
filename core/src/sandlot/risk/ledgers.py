"""Money and crypto: payments moved, chain transactions signed, nodes opened up (shared by both analyzers).

A refund, a payout or a transfer through a payment API moves real money when the key is live; a
signed transaction on a main network moves (or approves the spending of) real funds. Both are
HIGH unless the code clearly works in test mode (``sk_test_``, a sandbox host, a local chain or a
test network), then MEDIUM. A node's RPC opened to every address with its account or admin APIs,
or bitcoind accepting RPC from anywhere, lets anyone on the internet move its funds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import operation
from sandlot.risk.gate_words import GateWords

#: Signs of test money or a test chain: test keys, sandboxes, local chains, public test networks.
_TEST_NETWORK = re.compile(
    r"localhost|127\.0\.0\.1|\banvil\b|ganache|\bhardhat\b|(?<![a-z])(?:sepolia|goerli|holesky)(?![a-z])|\bdevnet\b"
    r"|\btestnet\b|[\"']?chainId[\"']?\s*[:=]\s*(?:11155111|17000|31337|1337)\b"
    r"|\bregtest\b|\blocalnet\b|\bsignet\b|--dev\b|\bsk_test_|\brk_test_|\b\w*_TEST_\w*|test_?mode|\bsandbox\b"
    r"|[-_.]uat\b",
    re.IGNORECASE,
)


def test_money(text: str) -> bool:
    """``text`` (the program or command) works with test keys, a sandbox, a local chain or a test network."""
    # (`getenv("ETH_RPC", "http://localhost:8545")`: the address comes from the environment; the default is a fallback)
    text = _ENVIRONMENT_DEFAULT.sub("", text) if "localhost" in text or "127.0.0.1" in text else text
    return bool(_TEST_NETWORK.search(text))


_ENVIRONMENT_DEFAULT = re.compile(r"(?:getenv|environ\.get)\(\s*[\"'][^\"']+[\"']\s*,\s*[\"'][^\"']*[\"']\s*\)")


#: Payment operations that move money out (one word per operation, see :func:`operation`).
_MONEY_OPERATIONS = (
    "refundcreate", "refundscreate", "payoutcreate", "payoutscreate", "transfercreate", "transferscreate",
    "createexternalaccount", "externalaccountscreate", "paymentspayouts", "payoutsitems", "creditcreate",
    "withdraw",  # an exchange account's funds sent to an address (ccxt, exchange SDKs)
)  # fmt: skip
#: Payment SDKs (and crypto exchange clients) whose calls are payment operations.
PAYMENT_PREFIXES = ("stripe.", "paypalrestsdk.", "paypalcheckoutsdk.", "braintree.", "Adyen.", "adyen.", "square.",
                    "ccxt.", "binance.", "coinbase.", "kraken.")  # fmt: skip


def moves_money(*words: str) -> bool:
    """The operation ``words`` (``("Refund", "create")``, ``("transfers", "create")``) moves money out."""
    op = operation(*words)
    return any(m in op for m in _MONEY_OPERATIONS)


#: REST paths of payment APIs that move money (Stripe's v1 API, PayPal payouts).
_MONEY_PATH = re.compile(
    r"/v1/(?:refunds|payouts|transfers)/?(?:\?|$)|/v1/payments/payouts/?(?:\?|$)"
    r"|/withdraw(?:als?)?(?:/apply)?/?(?:\?|$)"  # an exchange's withdrawal to an address (Binance, Kraken, OKX)
)
#: Payroll and accounting paths that decide where pay goes or pay a bill: an employee's bank account or payment
#: method, a salary row, a payment recorded against a bill (Gusto, BambooHR, Xero, QuickBooks).
_PAY_PATH = re.compile(
    r"/employees/[^/]+/(?:bank_accounts|payment_method)\b|/tables/compensation\b|/compensations?\b"
    r"|/api\.xro/2\.0/(?:Payments|BankTransfers|BatchPayments)\b|/v3/company/[^/]+/billpayment\b",
    re.IGNORECASE,
)


def money_request(method: str, url: str) -> bool:
    """An HTTP ``method`` on ``url`` that creates a refund, a payout or a transfer, redirects an employee's pay,
    sets a salary or pays a bill."""
    path = "/" + url.split("://", 1)[-1].split("/", 1)[-1] if "/" in url.split("://", 1)[-1] else "/"
    writes = method.upper() in ("POST", "PUT", "PATCH")
    return (method.upper() == "POST" and bool(_MONEY_PATH.search(path))) or (writes and bool(_PAY_PATH.search(path)))


#: Payment instruction files: NACHA/ACH batches, SEPA credit transfers (pain.001), named by their batch type.
_PAYMENT_FILE = re.compile(
    r"\.(?:ach|nacha)$|(?:^|[/_.-])pain\.?001[\w.-]*\.xml$|(?:^|/)(?:PPD|CCD|CTX|IAT)_[\w.-]+$"
    r"|(?:^|/)(?:ach|nacha)[_-][^/]*\.(?:txt|dat)$",
    re.IGNORECASE,
)


def payment_file(path: str) -> bool:
    """``path`` names a payment instruction file (a NACHA batch, a SEPA ``pain.001``): where money goes."""
    return bool(_PAYMENT_FILE.search(path))


#: Web3 methods that send a signed transaction.
CHAIN_SEND_METHODS = frozenset(
    {"send_raw_transaction", "send_transaction", "sendRawTransaction", "sendTransaction", "transact",
     "send_and_confirm_transaction"}
)  # fmt: skip


def chain_send_command(name: str, args: Sequence[str]) -> bool:
    """A command that signs and sends a transaction (or a token approval) on a chain."""
    words = list(args)
    return (
        (name == "cast" and words[:1] in (["send"], ["publish"]))
        or (name == "solana" and words[:1] in (["transfer"], ["pay"]))
        or (name == "spl-token" and words[:1] in (["transfer"], ["approve"]))
        or (name in ("bitcoin-cli", "litecoin-cli") and any(
            w in ("sendtoaddress", "sendmany", "sendall", "sendrawtransaction", "send") for w in words))
    )  # fmt: skip


_EVERY_ADDRESS = ("0.0.0.0", "::", "*", "0.0.0.0/0", "::/0")


def node_exposure(name: str, args: Sequence[str]) -> str | None:
    """What a blockchain node's command line opens to the internet (its accounts, admin API or wallet), or None."""
    joined = " ".join(args)
    values = {
        key: value
        for arg in args
        if arg.startswith("-") and "=" in arg
        for key, value in [arg.lstrip("-").split("=", 1)]
    }
    for i, arg in enumerate(args[:-1]):
        if arg.startswith("--") and "=" not in arg:
            values.setdefault(arg.lstrip("-"), args[i + 1])
    if name in ("geth", "bor", "erigon", "reth", "op-geth"):
        everywhere = any(values.get(k) in _EVERY_ADDRESS for k in ("http.addr", "ws.addr", "rpcaddr", "wsaddr"))
        apis = values.get("http.api", "") + " " + values.get("ws.api", "")
        powerful = re.search(r"\b(?:personal|admin|debug|miner)\b", apis)
        unlocked = "--allow-insecure-unlock" in args or "--unlock" in joined
        if everywhere and (powerful or unlocked):
            return f"{name} serves its account or admin APIs on every interface (anyone can move its funds)"
    if name in ("bitcoind", "litecoind", "dogecoind") and (
        values.get("rpcallowip") in _EVERY_ADDRESS or values.get("rpcbind") in _EVERY_ADDRESS
    ):
        return f"{name} accepts wallet RPC from every address"
    return None


#: A payee's bank account set to a constant in a payment or payroll file: a record's field assigned a literal
#: (`r["sort_code"] = "04-00-75"`), an awk field set to a sort code or an account number, or a sed substitution
#: that puts a constant number after an account's label (`s/(Account: *)[0-9]{6,17}/\17710045582/`).
_ACCOUNT_OVERWRITE = re.compile(
    r"[\"'](?:\w+_)?(?:sort_?code|account_?no|account_?number|iban|routing_?number|bank_?account)[\"']\]"
    r"[^=\n]{0,60}=\s*(?:[\"'][\dA-Z][\dA-Z -]{5,}[\"']|(?P<const>[A-Z][A-Z0-9_]*(?:IBAN|ACCOUNT|ACCT))\b)"
    r"|\$\d+\s*=\s*\\?\"(?:\d{2}-\d{2}-\d{2}|\d{8,}|[A-Z]{2}\d{2}[A-Z0-9]{10,})\\?\""
    r"|\bs(?P<sep>[/|#])[^/|#\n]*(?:account|routing|aba|iban|sort)[^/|#\n]*(?P=sep)[^/|#\n]*\d{6,}[^/|#\n]*(?P=sep)",
    re.IGNORECASE,
)
#: A sed substitution whose pattern matches IBANs and whose replacement is one (`s/DE[0-9]{20}/LT60…/`).
_IBAN_SUBSTITUTION = re.compile(
    r"\bs/[^/\n]*[A-Z]{2}(?:\[0-9\]|\\d|\d{2})[^/\n]*/[^/\n]*[A-Z]{2}\d{2}[A-Z0-9]{10,30}[^/\n]*/"
)
#: An IBAN spelled as a constant, grouped in fours or not (`"GB94 BARC 2004 0568 1937 22"`).
_IBAN_LITERAL = re.compile(r"[\"']([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?)[\"']")
_PAYMENT_WORDS = re.compile(r"bacs|payment|payout|payroll|remittance|\bach\b|sepa|disburse|\bwires?\b|beneficiar"
                            r"|escrow|virement|settlement|invoice",
                            re.IGNORECASE)  # fmt: skip


#: One constant bank account sent as the update of each payee a loop gives (`for s in staff: requests.patch(…,
#: json={"account_number": "31926819", …})`).
_ACCOUNT_SENT_IN_LOOP = re.compile(
    r"\bfor\s+\w+\s+in\b[\s\S]{0,600}?(?:\.(?:patch|put|post|update)\(|-X\s*(?:PUT|PATCH|POST)\b)[\s\S]{0,300}?"
    r"[\"'](?:sort_?code|account_?no|account_?number|iban|routing(?:_?number)?|bank_?account|account|aba|swift|bic)"
    r"[\"']\s*:\s*[\"'][\dA-Z][\dA-Z -]{5,}[\"']",
    re.IGNORECASE,
)


def rewrites_payee_accounts(text: str) -> bool:
    """``text`` rewrites the bank accounts of payees in a payment, payout or payroll file, or sets one account for
    every payee through an API (payments go elsewhere)."""
    iban_replaced = "s/" in text and _IBAN_SUBSTITUTION.search(text) is not None
    # (one IBAN replaced by another in documents: `run.text.replace(OLD, NEW)` with both spelled as constants)
    iban_replaced = iban_replaced or (".replace(" in text and len(set(_IBAN_LITERAL.findall(text))) >= 2)
    if not iban_replaced and not _ACCOUNT_WORDS.any_in(text):
        return False  # (cheap words without which neither pattern can match)
    overwritten = any(
        # (a constant's name, `r["iban"] = NEW_IBAN`, counts when the text sets it to an account number)
        m["const"] is None or re.search(rf"\b{m['const']}\s*=\s*[\"'][A-Z]{{2}}\d{{2}}[\dA-Z ]{{8,}}[\"']", text)
        for m in _ACCOUNT_OVERWRITE.finditer(text)
    )
    return bool(iban_replaced or overwritten or _ACCOUNT_SENT_IN_LOOP.search(text)) and bool(
        _PAYMENT_WORDS.search(text)
    )


_ACCOUNT_WORDS = GateWords("ccount", "CCOUNT", "outing", "OUTING", "iban", "IBAN", "Iban", "sort", "SORT", "Sort",
                           "aba", "ABA", "Aba", "swift", "SWIFT", "Swift", "bic", "BIC", "Bic", "$")  # fmt: skip
