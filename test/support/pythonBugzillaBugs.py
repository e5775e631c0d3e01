"""Files, reads and changes bugs with the real python-bugzilla library; prints one JSON object.

Usage: python3 pythonBugzillaBugs.py URL API_KEY
"""
import json
import sys

import bugzilla

url, api_key = sys.argv[1], sys.argv[2]
bz = bugzilla.Bugzilla(url, api_key=api_key)
results = {}

def new_bug(summary, **extra):
    return bz.createbug(bz.build_createbug(
        product="TestProduct", component="TestComponent", version="unspecified",
        summary=summary, description="Filed by python-bugzilla", op_sys="Linux", platform="PC", **extra))

bug = bz.getbug(new_bug("Python bug", severity="major").id)
other = new_bug("Blocker of the python bug")
results["created"] = {"summary": bug.summary, "status": bug.status, "severity": bug.severity, "creator": bug.creator}

update = bz.build_update(status="IN_PROGRESS", cc_add=[bug.creator], depends_on_add=[other.id],
                         keywords_add=["py-keyword"], whiteboard="py", comment="Working on it",
                         flags=[{"name": "py-flag", "status": "?"}])
results["changes"] = bz.update_bugs([bug.id], update)["bugs"][0]["changes"]
bz.update_bugs([bug.id], bz.build_update(status="RESOLVED", resolution="FIXED"))
bug.refresh()
results["after"] = {
    "status": bug.status, "resolution": bug.resolution, "cc": bug.cc, "depends_on": bug.depends_on,
    "keywords": bug.keywords, "whiteboard": bug.whiteboard, "flags": [(f["name"], f["status"]) for f in bug.flags],
}
results["blocks"] = bz.getbug(other.id).blocks
history = bz.bugs_history_raw([bug.id])["bugs"][0]["history"]
results["history_fields"] = sorted({change["field_name"] for entry in history for change in entry["changes"]})
results["getbugs"] = sorted(b.id for b in bz.getbugs([bug.id, other.id]))
print(json.dumps(results))
