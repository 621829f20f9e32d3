"""Reads every feed file named on the command line and prints one JSON report per file.

RSS and Atom go through feedparser (the parser most readers' code descends from): `bozo` says
whether the XML was well formed and the format understood. JSON Feeds go through the JSON Feed
1.1 schema beside this file with jsonschema's own format checker.
"""
import json
import sys
from pathlib import Path
from urllib.parse import urlsplit

import feedparser
import jsonschema

SCHEMA = json.loads((Path(__file__).parent / "jsonfeed-1.1.schema.json").read_text())
FORMATS = jsonschema.FormatChecker()


# jsonschema checks "uri" only with an optional package installed: an absolute URL is what the spec means.
@FORMATS.checks("uri")
def is_uri(value):
    parts = urlsplit(value)
    return bool(parts.scheme in ("http", "https") and parts.netloc)


def check_xml(text):
    parsed = feedparser.parse(text)
    return {
        "bozo": bool(parsed.bozo),
        "error": str(parsed.get("bozo_exception", "")),
        "version": parsed.version,
        "title": parsed.feed.get("title", ""),
        "link": parsed.feed.get("link", ""),
        "author": parsed.feed.get("author", ""),
        "entries": [
            {
                "id": e.get("id", ""),
                "link": e.get("link", ""),
                "author": e.get("author", ""),
                "content": (e.get("content") or [{}])[0].get("value", ""),
                "tags": [t.get("term") for t in e.get("tags", [])],
                "media": [m.get("url") for m in e.get("media_content", [])] + [l.get("href") for l in e.get("links", []) if l.get("rel") == "enclosure"],
                "enclosures": [{"href": l.get("href"), "length": l.get("length"), "type": l.get("type")} for l in e.get("enclosures", [])],
            }
            for e in parsed.entries
        ],
    }


def check_json(text):
    feed = json.loads(text)
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=FORMATS)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(feed)]
    return {"errors": errors, "entries": [{"id": i["id"], "content": i.get("content_html", ""), "author": (i.get("authors") or [{}])[0].get("name", ""), "tags": i.get("tags", []), "media": [i["image"]] if "image" in i else [], "enclosures": [{"href": a["url"], "length": str(a["size_in_bytes"]), "type": a["mime_type"]} for a in i.get("attachments", [])]} for i in feed.get("items", [])]}


report = {}
for name in sys.argv[1:]:
    text = Path(name).read_text(encoding="utf-8")
    report[name] = check_json(text) if name.endswith(".json") else check_xml(text)
print(json.dumps(report))
