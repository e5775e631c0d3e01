"""Comments and attachments through the real python-bugzilla library; prints one JSON object.

Usage: python3 pythonBugzillaAttachments.py URL API_KEY BUG_ID FILE REQUESTEE
"""
import hashlib
import json
import sys

import bugzilla

url, api_key, bug_id, path, requestee = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
results = {}

bz = bugzilla.Bugzilla(url, api_key=api_key)
bug = bz.getbug(bug_id)
bug.addcomment("Added by python-bugzilla")
bug.addcomment("Only for insiders", private=True)
results["comments"] = [[c["count"], c["text"], c["is_private"]] for c in bug.getcomments()]

attachment_id = bz.attachfile(bug_id, path, "Binary from python", content_type="application/octet-stream", comment="uploaded")
results["attachment_id"] = attachment_id
with open(path, "rb") as original:
    expected = hashlib.sha256(original.read()).hexdigest()
results["download_identical"] = hashlib.sha256(bz.openattachment(attachment_id).read()).hexdigest() == expected

bz.updateattachmentflags(bug_id, attachment_id, "review", status="?", requestee=requestee)
attachment = bz.get_attachments(None, attachment_id, exclude_fields=["data"])["attachments"][str(attachment_id)]
results["flags"] = [[f["name"], f["status"], f.get("requestee")] for f in attachment["flags"]]

# python-bugzilla has no helper for obsolescence; this is the library's own update call.
changes = bz._backend.bug_attachment_update([attachment_id], {"is_obsolete": True})
results["obsolete_changes"] = changes["attachments"][0]["changes"]
results["attachment_ids"] = bz.getbug(bug_id).get_attachment_ids()

print(json.dumps(results))
