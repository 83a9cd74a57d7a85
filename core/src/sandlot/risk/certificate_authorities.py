"""Certificate authorities driven from scripts: Vault's PKI engine, EJBCA's REST API, step-ca, an OpenSSL CA
(shared by both analyzers, judged on the whole text).

What needs a careful reviewer:

* every certificate a listing gives revoked (a CA's index, a search, a Vault mount's serials): every service that
  uses them fails TLS at once;
* an issuing role opened to any name with hostname checks off: the CA signs certificates for other companies'
  domains, which every client trusting it accepts.

Revoking one named certificate, issuing for the organisation's own names and rotating a CRL are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

_CA_WORDS = GateWords("revoke", "allow_any_name")
_REVOCATION = re.compile(
    r"/revoke\b|\bpki\w*/revoke\b|[\"',\s]-revoke[\"',\s]|\bstep\s+ca\s+revoke\b|\bca\s+revoke\b|revoke_certificate\("
)
#: Words that say the revoked things are certificates (an API key's `/revoke.json` is not one).
_CERTIFICATE_WORDS = re.compile(r"cert|pki|x509|serial|\bca\b|ejbca|\bcrl\b|\bstep\s", re.IGNORECASE)
_ANY_NAME = re.compile(r"\ballow_any_name\s*[=:]\s*[\"']?(?:true|True)\b")
_HOSTNAMES_UNCHECKED = re.compile(r"\benforce_hostnames\s*[=:]\s*[\"']?(?:false|False)\b")


def ca_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a certificate authority's certificates and issuing roles."""
    if not _CA_WORDS.any_in(text):
        return []
    found = []
    if _REVOCATION.search(text) and any_loop(text) and _CERTIFICATE_WORDS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "revokes every certificate a listing gives (every service using them fails TLS)"))
    if _ANY_NAME.search(text) and _HOSTNAMES_UNCHECKED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "lets a CA role issue certificates for any name, other companies' domains "
                                   "included (clients trusting the CA accept them)"))  # fmt: skip
    return found
