"""Runs quicksearches against Tracker with the real python-bugzilla library, the way its users
write them: build_query(quicksearch=...) and url_to_query() of a buglist.cgi link, then query().
Prints one JSON object: for each quicksearch, the sorted ids found (by both routes, which must
agree) or the error. python-bugzilla's REST backend raises an HTTP error for a 4xx answer before
it reads the Bugzilla error in the body, so a refused quicksearch is reported as its HTTP status.

Usage: python3 pythonBugzillaQuicksearch.py URL API_KEY '["query", ...]'
"""
import json
import sys
import urllib.parse

import bugzilla
import requests

url, api_key, queries = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
bz = bugzilla.Bugzilla(url, api_key=api_key)
results = {}
for text in queries:
    try:
        built = sorted(bug.id for bug in bz.query(bz.build_query(quicksearch=text)))
        link = url.replace("/rest", "") + "/buglist.cgi?" + urllib.parse.urlencode({"quicksearch": text})
        linked = sorted(bug.id for bug in bz.query(bz.url_to_query(link)))
        results[text] = built if built == linked else {"build_query": built, "url_to_query": linked}
    except bugzilla.BugzillaError as error:
        results[text] = {"error": bugzilla.BugzillaError.get_bugzilla_error_code(error)}
    except requests.HTTPError as error:
        results[text] = {"http": int(str(error).split()[0])}
print(json.dumps(results))
