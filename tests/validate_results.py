"""validate_results.py SCHEMA RESULTS [SCORE]: RESULTS is valid against SCHEMA
(Gradescope's results.json), its score is the sum of its tests' scores, no
test scores above its max_score, and, with SCORE, the score is SCORE. Says
what is wrong and exits 1."""
import json
import sys

import jsonschema

schema_path, results_path = sys.argv[1], sys.argv[2]
with open(schema_path) as f:
    schema = json.load(f)
with open(results_path, encoding="utf-8") as f:
    results = json.load(f)
try:
    jsonschema.validate(results, schema)
except jsonschema.ValidationError as e:
    sys.exit(f"{results_path}: not Gradescope's format: {e.message} (at {list(e.absolute_path)})")
total = sum(t["score"] for t in results["tests"])
if abs(total - results["score"]) > 0.01 * max(1, len(results["tests"])):
    sys.exit(f"{results_path}: score {results['score']} but its tests add up to {total}")
for t in results["tests"]:
    if t["score"] > t["max_score"] + 1e-6:
        sys.exit(f"{results_path}: {t['name']} scores {t['score']} of {t['max_score']}")
if len(sys.argv) > 3 and abs(results["score"] - float(sys.argv[3])) > 0.01:
    sys.exit(f"{results_path}: score {results['score']}, expected {sys.argv[3]}")
print(f"{results_path}: valid, {results['score']} points in {len(results['tests'])} tests")
