"""Files, changes and finds bugs with an installation's own priorities (P1..P5) through the real
python-bugzilla library; prints one JSON object.

Usage: python3 pythonBugzillaPriorities.py URL API_KEY
"""
import json
import sys

import bugzilla

url, api_key = sys.argv[1], sys.argv[2]
bz = bugzilla.Bugzilla(url, api_key=api_key)
results = {}

created = bz.createbug(bz.build_createbug(
    product="TestProduct", component="TestComponent", version="unspecified", summary="Python P1 bug",
    description="Filed by python-bugzilla", op_sys="Linux", platform="PC", priority="P1"))
bug = bz.getbug(created.id)
results["created"] = {"id": bug.id, "priority": bug.priority}
results["changes"] = bz.update_bugs([bug.id], bz.build_update(priority="P2"))["bugs"][0]["changes"]
bug.refresh()
results["updated"] = bug.priority
results["found"] = sorted(b.id for b in bz.query(bz.build_query(product="TestProduct", priority="P2")))
print(json.dumps(results))
