"""Java and the JVM's own ways to be opened up (shared by both analyzers, judged on the whole text).

A JVM runs what it is told to load: a remote codebase JNDI points at, a serialized object's gadget chain, an
agent jar attached to a running process, a JSP dropped into a web application. What needs a careful reviewer:

* JMX served on the network without authentication (anyone reaching the port runs code in the JVM);
* remote class loading switched back on (``trustURLCodebase=true``, ``formatMsgNoLookups=false``: Log4Shell);
* an AJP connector on every address without its secret (Ghostcat: files read, JSPs run);
* a Tomcat manager's address restriction removed;
* a JSP or servlet that runs what a request sends (a web shell), and JNDI lookup strings sprayed at hosts;
* a serialized gadget chain sent to an RMI registry or another Java port;
* an application server's administrators group joined (WebLogic), its stored passwords decrypted with the
  domain's key, its connection filter removed, or its management interface's authentication undefined
  (WildFly) or put on every address;
* Jenkins told through Groovy to drop its security (anonymous administrators, no authorization, no CSRF crumbs),
  to decrypt every stored credential, or to run an unsandboxed pipeline that grabs code from a plain-HTTP or bare
  address.

Monitoring a JVM locally, dumping its threads and deploying a WAR are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_UNAUTHENTICATED_JMX = re.compile(r"jmxremote\.authenticate\s*=\s*false", re.IGNORECASE)
_JMX_PORT = re.compile(r"jmxremote\.port\s*=|jmxremote\.local\.only\s*=\s*false", re.IGNORECASE)
_REMOTE_CODEBASE = re.compile(
    r"trustURLCodebase[\"']?\s*[=,]\s*[\"']?true|formatMsgNoLookups[\"']?\s*[=,]\s*[\"']?false", re.IGNORECASE
)
#: An AJP connector with its shared secret turned off, on every address (or with no address given).
_OPEN_AJP = re.compile(r"<Connector\b[^>]*AJP[^>]*secretRequired\s*=\s*[\"']false[\"'][^>]*>", re.IGNORECASE)
#: The manager application's address filter matched in a deletion (`re.sub(…, "")`, `sed '…RemoteAddrValve…d'`).
_VALVE_REMOVED = re.compile(
    r"re\.sub\([^\n]*RemoteAddrValve[^\n]*,\s*[\"']{2}|\bsed\b[^\n]*RemoteAddrValve[^\n]*(?:/d\b|##|//g?[\"'])"
)
#: A page or servlet handing a request's parameter to a process.
_WEB_SHELL = re.compile(
    r"request\.getParameter\([\s\S]{0,400}?(?:Runtime\.getRuntime\(\)\.exec|new\s+ProcessBuilder)\("
    r"|(?:Runtime\.getRuntime\(\)\.exec|new\s+ProcessBuilder)\([^;]{0,300}?request\.getParameter\("
)
_JNDI_LOOKUP = re.compile(r"\$\{jndi:(?:ldaps?|rmi|dns|iiop|corba|nds|http)s?:", re.IGNORECASE)
_SENDS = re.compile(r"requests\.\w+\(|\bcurl\b|urlopen\(|\.request\(|httpx\.\w+\(|\bwget\b")
#: A Java serialization stream or a known gadget chain, written to a socket.
_SERIALIZED_JAVA = re.compile(r"b[\"']JRMI|\\xac\\xed\\x00\\x05|\bysoserial\b|CommonsCollections\d|b[\"']t3\s+\d")
_SOCKET_SEND = re.compile(r"\.sendall\(|\.send\(|\bnc\s|\bncat\s|/dev/tcp/")
#: A jar fetched from a bare address, and a JVM told to load an agent.
_DOWNLOADED_JAR = re.compile(r"https?://(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?/[^\s'\"]*\.jar\b")
#: Jenkins' security dropped: anyone allowed everything, anonymous made an administrator, CSRF protection removed.
_JENKINS_UNSECURED = re.compile(
    r"AuthorizationStrategy\.UNSECURED|\bUnsecured\(\)|new\s+AuthorizationStrategy\.Unsecured"
    r"|ADMINISTER\s*,\s*[\"'](?:anonymous|authenticated)[\"']|setCrumbIssuer\(\s*null\s*\)"
    r"|setAllowAnonymousRead\(\s*true[\s\S]{0,200}?FullControlOnceLoggedIn|\.ANONYMOUS\s*,\s*Jenkins\.ADMINISTER"
)
#: Every credential Jenkins stores, decrypted.
_JENKINS_CREDENTIALS = re.compile(r"SystemCredentialsProvider|lookupCredentials\(|CredentialsProvider\.lookup")
_DECRYPTED = re.compile(r"\.plainText\b|getPlainText\(|Secret\.decrypt\(|hudson\.util\.Secret\.toString")
#: A pipeline run outside the Groovy sandbox that grabs code from a plain-HTTP or bare address.
_GRAB_FROM = re.compile(r"@GrabResolver\([^)]*root\s*=\s*[\"'](https?)://([^/:'\"]+)")
_PLUGIN_INSTALL = re.compile(r"pluginManager/uploadPlugin|\binstall-plugin\b|pluginManager/installNecessaryPlugins")
_BARE_URL = re.compile(r"https?://(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?/")
#: Application servers' own administration: WebLogic (WLST) and WildFly (jboss-cli).
_WEBLOGIC_ADMIN_GROUP = re.compile(r"addMemberToGroup\(\s*[\"']Administrators[\"']")
_WEBLOGIC_DECRYPT = re.compile(r"(?:ClearOrEncryptedService|SerializedSystemIni)[\s\S]{0,1500}?\.decrypt\(")
_FILTER_REMOVED = re.compile(r"setConnectionFilter(?:Rules)?\(\s*None\s*\)")
_MANAGEMENT_OPENED = re.compile(
    r"management-interface=[\w-]+:undefine-attribute\(name=(?:http-authentication-factory|security-realm)\)"
    r"|interface=management:write-attribute\(name=inet-address,\s*value=(?:0\.0\.0\.0|::)\)"
)
_WORDS = GateWords("javaagent", "Strategy", "uploadPlugin", "install-plugin", "installNecessary", "Unsecured",
                   "ADMINISTER", "CrumbIssuer", "Credentials", "GrabResolver", "jmxremote", "Codebase", "NoLookups",
                   "AJP", "RemoteAddrValve", "getParameter", "jndi:", "JRMI", "xac", "ysoserial",
                   "CommonsCollections", "t3 ", "addMemberToGroup", "SerializedSystemIni", "ClearOrEncrypted",
                   "setConnectionFilter", "management-interface", "interface=management")  # fmt: skip


def jvm_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to Java applications and the JVMs that run them."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _UNAUTHENTICATED_JMX.search(text) and _JMX_PORT.search(text):
        what = "serves a JVM's JMX on the network without authentication (whoever reaches the port runs code in it)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _REMOTE_CODEBASE.search(text):
        what = "switches remote class loading back on (JNDI codebases, Log4j lookups: a Log4Shell string runs code)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DESERIALIZATION, what))
    if _OPEN_AJP.search(text):
        what = "adds an AJP connector without its secret (Ghostcat: anyone reaching it reads files and runs JSPs)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _VALVE_REMOVED.search(text):
        what = "removes the Tomcat manager's address restriction (the manager, which deploys code, opens to all)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _WEB_SHELL.search(text):
        what = "writes a web shell: a page that runs the commands a request sends"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.PERSISTENCE, what))
    if _JNDI_LOOKUP.search(text) and _SENDS.search(text):
        what = "sends JNDI lookup strings (Log4Shell) to servers: each vulnerable one loads code from the address given"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _SERIALIZED_JAVA.search(text) and _SOCKET_SEND.search(text):
        what = "sends a serialized Java object (a deserialization gadget chain) to a Java port"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DESERIALIZATION, what))
    if "-javaagent:" in text and any(outside_address(ip) for ip in _DOWNLOADED_JAR.findall(text)):
        what = "attaches a Java agent downloaded from a bare outside address (it runs inside the JVM, with its data)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    found += _jenkins_risks(text)
    found += _application_server_risks(text)
    return found


def _application_server_risks(text: str) -> list[OperationRisk]:
    found = []
    if _WEBLOGIC_ADMIN_GROUP.search(text):
        what = "puts an account into WebLogic's Administrators group (it deploys code and reads every secret)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _WEBLOGIC_DECRYPT.search(text):
        what = "decrypts the passwords WebLogic stores with the domain's own key (data sources, keystores, users)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _FILTER_REMOVED.search(text) or _MANAGEMENT_OPENED.search(text):
        what = ("removes an application server's connection filter, or its management interface's authentication, "
                "or serves that interface on every address")
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    return found


def _jenkins_risks(text: str) -> list[OperationRisk]:
    found = []
    if _JENKINS_UNSECURED.search(text):
        what = ("drops Jenkins' security (anyone allowed everything, anonymous users administrators, or CSRF "
                "protection off): whoever reaches it runs code on the controller")
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _JENKINS_CREDENTIALS.search(text) and _DECRYPTED.search(text):
        what = "decrypts the credentials Jenkins stores (every deploy key, token and password of its jobs)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    grabbed = [(scheme, host) for scheme, host in _GRAB_FROM.findall(text) if scheme == "http" or outside_address(host)]
    if grabbed and ("<sandbox>false" in text or "sandbox=false" in text or "@Grab(" in text):
        what = f"has a Jenkins pipeline grab code from {grabbed[0][0]}://{grabbed[0][1]} and run it on the controller"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if _PLUGIN_INSTALL.search(text) and any(outside_address(ip) for ip in _BARE_URL.findall(text)):
        what = "installs a Jenkins plugin downloaded from a bare outside address (it runs inside the controller)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    return found
