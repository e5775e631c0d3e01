"""Drives Tracker's XML-RPC endpoint with the real python-bugzilla library; prints one JSON object.

Usage: python3 pythonBugzillaXmlRpc.py URL API_KEY FILE LOGIN PASSWORD CC_LOGIN

URL ends in /xmlrpc.cgi, and the library is told to speak XML-RPC (force_xmlrpc), so nothing of
this goes through /rest.
"""
import hashlib
import json
import sys
import xmlrpc.client

import bugzilla

url, api_key, path, login, password, cc_login = sys.argv[1:7]
results = {}

bz = bugzilla.Bugzilla(url, api_key=api_key, force_xmlrpc=True)
results["backend"] = {"xmlrpc": bz.is_xmlrpc(), "url": bz.url}
results["logged_in"] = bz.logged_in
results["version"] = [bz.bz_ver_major, bz.bz_ver_minor]

created = bz.createbug(bz.build_createbug(
    product="TestProduct", component="TestComponent", version="unspecified",
    summary="Python xmlrpcword bug", description="Filed over XML-RPC", op_sys="Linux", platform="PC",
    severity="major", priority="High"))
bug = bz.getbug(created.id)
results["created"] = {
    "id": bug.id, "summary": bug.summary, "status": bug.status, "severity": bug.severity,
    "priority": bug.priority, "creator": bug.creator,
    # xmlrpc.client's DateTime: what a dateTime.iso8601 value becomes.
    "creation_time_type": type(bug.creation_time).__name__, "creation_time": str(bug.creation_time),
}

def ids(query):
    return sorted(found.id for found in bz.query(query))

results["query"] = ids(bz.build_query(product="TestProduct", status="CONFIRMED", short_desc="xmlrpcword"))
results["query_resolved"] = ids(bz.build_query(product="TestProduct", status="RESOLVED", short_desc="xmlrpcword"))
results["quicksearch"] = ids(bz.build_query(quicksearch="xmlrpcword"))

update = bz.build_update(status="IN_PROGRESS", comment="Working over XML-RPC", cc_add=[cc_login])
results["changes"] = bz.update_bugs([bug.id], update)["bugs"][0]["changes"]
bug.refresh()
results["after"] = {"status": bug.status, "cc": bug.cc, "comments": [c["text"] for c in bug.getcomments()]}

attachment_id = bz.attachfile(bug.id, path, "Binary over XML-RPC", content_type="application/octet-stream",
                              comment="uploaded")
with open(path, "rb") as original:
    expected = hashlib.sha256(original.read()).hexdigest()
downloaded = bz.openattachment(attachment_id)
results["download"] = {
    "name": downloaded.name,
    "identical": hashlib.sha256(downloaded.read()).hexdigest() == expected,
}
attachment = bz.get_attachments(None, attachment_id, exclude_fields=["data"])["attachments"][str(attachment_id)]
results["attachment"] = {key: attachment[key] for key in ("bug_id", "file_name", "summary", "content_type", "is_patch")}

history = bz.bugs_history_raw([bug.id])["bugs"][0]["history"]
results["history_fields"] = sorted({change["field_name"] for entry in history for change in entry["changes"]})

try:
    bz.getbug(99999999)
    results["missing"] = "found"
except xmlrpc.client.Fault as fault:
    results["missing"] = [fault.faultCode, fault.faultString]

session = bugzilla.Bugzilla(url, use_creds=False, force_xmlrpc=True)
session.login(login, password)
results["token_logged_in"] = session.logged_in
session.update_bugs([bug.id], session.build_update(comment="Sent with a token"))
results["token_comment"] = bz.getbug(bug.id).getcomments()[-1]["text"]

try:
    bugzilla.Bugzilla(url, use_creds=False, force_xmlrpc=True).login(login, "wrong")
    results["bad_login"] = "accepted"
except bugzilla.BugzillaError as error:
    results["bad_login"] = str(error)

print(json.dumps(results))
