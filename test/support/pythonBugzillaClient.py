"""Drives Tracker with the real python-bugzilla library; prints one JSON object of results.

Usage: python3 pythonBugzillaClient.py URL API_KEY
"""
import json
import sys

import bugzilla

url, api_key = sys.argv[1], sys.argv[2]
results = {}

bz = bugzilla.Bugzilla(url, api_key=api_key)
results["logged_in"] = bz.logged_in
results["version"] = [bz.bz_ver_major, bz.bz_ver_minor]
results["products"] = sorted(p["name"] for p in bz.getproducts())
results["components"] = bz.getcomponents("TestProduct")

user = bz.createuser("py-user@tracker.test", "Py User", "py-secret")
results["created_user_id"] = user.userid
bz.updateperms("py-user@tracker.test", "add", ["canconfirm"])
results["user_groups"] = sorted(g["name"] for g in bz.getuser("py-user@tracker.test").groups)

bz.addcomponent({"product": "TestProduct", "component": "PyComponent", "description": "Made by python-bugzilla", "initialowner": "py-user@tracker.test"})
details = bz.getcomponentdetails("TestProduct", "PyComponent", force_refresh=True)  # python-bugzilla caches components
results["component_owner"] = details["default_assigned_to"]
edited = bz.editcomponent({"product": "TestProduct", "component": "PyComponent", "description": "Edited by python-bugzilla"})
results["component_changes"] = edited["components"][0]["changes"]

session = bugzilla.Bugzilla(url, use_creds=False)
session.login("py-user@tracker.test", "py-secret")
results["token_logged_in"] = session.logged_in

try:
    bugzilla.Bugzilla(url, use_creds=False).login("py-user@tracker.test", "wrong")
    results["bad_login"] = "accepted"
except bugzilla.BugzillaError as error:
    results["bad_login"] = str(error)

print(json.dumps(results))
