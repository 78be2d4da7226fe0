#include "api/mcptools.h"

// The MCP tools, each one call of the HTTP API: "call" names the route ({name} filled from the argument of that
// name; "query" arguments go to the query string, the others into the JSON body, renamed by "rename"). "output"
// names the schema in openapitext.cpp that the API's answer, the tool's structuredContent, follows.
namespace berth::McpTools {

QByteArray toolText()
{
    return R"json([
{"name": "whoami", "title": "Who am I",
 "description": "The identity this session acts as (user id, email or agent, plan) and what is left of each limit: deployments used and allowed; per site, submissions today and stored, and counters.",
 "call": {"method": "GET", "path": "/auth/me"}, "output": "Me",
 "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
 "input": {"type": "object", "properties": {}, "additionalProperties": false}},
{"name": "deploy", "title": "Publish a site",
 "description": "Publish one HTML page (html) or a set of files (files) to a new live URL. Limits: 5 MB page, 10 MB per file, 50 MB in all. private: only visitors with the returned share_url get in (and, with password, those who type it).",
 "call": {"method": "POST", "path": "/deploy", "rename": {"private": "protect"}}, "output": "DeploymentSummary",
 "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true},
 "input": {"type": "object", "additionalProperties": false, "properties": {
   "html": {"type": "string", "description": "The whole page, for a single-page site. One of html or files."},
   "files": {"type": "array", "description": "Files of a multi-file site; index.html is its root.", "items": {
     "type": "object", "required": ["path", "content"], "additionalProperties": false, "properties": {
       "path": {"type": "string", "description": "Relative path, e.g. css/site.css"},
       "content": {"type": "string", "description": "Text, or base64 with encoding base64."},
       "encoding": {"type": "string", "enum": ["base64"]},
       "contentType": {"type": "string"}}}},
   "slug": {"type": "string", "description": "The address: lowercase words joined by hyphens, e.g. launch-day. Generated when omitted."},
   "title": {"type": "string"}, "description": {"type": "string", "description": "Meta description."},
   "favicon": {"type": "string", "description": "An emoji."}, "og_image": {"type": "string", "description": "Open Graph image URL."},
   "is_spa": {"type": "boolean", "description": "Serve index.html for unknown paths."},
   "private": {"type": "boolean"}, "password": {"type": "string", "description": "Needs private: true."},
   "expires_in": {"type": "integer", "minimum": 1, "maximum": 315360000, "description": "Seconds until the site goes offline as if deleted (e.g. 86400: a day). Omitted: it stays, unless the owner makes agents' sites expire."}}}},
{"name": "update", "title": "Update a site",
 "description": "Replace a deployment's content (html or files: all files are replaced) or settings; omitted fields keep their values. The address stays.",
 "call": {"method": "PUT", "path": "/deploy/{id}", "rename": {"private": "protect"}}, "output": "DeploymentSummary",
 "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true},
 "input": {"type": "object", "required": ["id"], "additionalProperties": false, "properties": {
   "id": {"type": "string", "description": "The deployment id (dep_...)."},
   "html": {"type": "string"},
   "files": {"type": "array", "items": {"type": "object", "required": ["path", "content"], "additionalProperties": false,
     "properties": {"path": {"type": "string"}, "content": {"type": "string"}, "encoding": {"type": "string", "enum": ["base64"]},
       "contentType": {"type": "string"}}}},
   "title": {"type": "string"}, "description": {"type": "string"}, "favicon": {"type": "string"},
   "og_image": {"type": "string"}, "is_spa": {"type": "boolean"},
   "private": {"type": "boolean", "description": "true: share link only; false: removes all protection."},
   "password": {"type": "string"}, "remove_password": {"type": "boolean"},
   "expires_in": {"type": "integer", "minimum": 1, "maximum": 315360000, "description": "Seconds from now until the site goes offline as if deleted."}}}},
{"name": "rename_slug", "title": "Rename a site",
 "description": "Give a deployment a new slug. The old address stops working at once and is free for others.",
 "call": {"method": "PATCH", "path": "/deploy/{id}/slug"}, "output": "DeploymentSummary",
 "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true},
 "input": {"type": "object", "required": ["id", "slug"], "additionalProperties": false, "properties": {
   "id": {"type": "string"}, "slug": {"type": "string"}}}},
{"name": "get_status", "title": "A site's status",
 "description": "A deployment's address, status and settings.",
 "call": {"method": "GET", "path": "/deploy/{id}"}, "output": "Deployment",
 "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
 "input": {"type": "object", "required": ["id"], "additionalProperties": false, "properties": {"id": {"type": "string"}}}},
{"name": "list_deploys", "title": "List sites", "description": "Every deployment of this identity.",
 "call": {"method": "GET", "path": "/deploys"}, "output": "DeploymentList",
 "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
 "input": {"type": "object", "properties": {}, "additionalProperties": false}},
{"name": "list_versions", "title": "A site's versions",
 "description": "The kept versions of a deployment, newest first: number, when, file count, total size, title, and which is live.",
 "call": {"method": "GET", "path": "/deploy/{id}/versions"}, "output": "VersionList",
 "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
 "input": {"type": "object", "required": ["id"], "additionalProperties": false, "properties": {"id": {"type": "string"}}}},
{"name": "rollback", "title": "Roll a site back",
 "description": "Serve a kept version (see list_versions) again, as a new version: its files, title, description, favicon, og_image and is_spa. Protection stays as it is.",
 "call": {"method": "POST", "path": "/deploy/{id}/rollback"}, "output": "DeploymentSummary",
 "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true},
 "input": {"type": "object", "required": ["id", "version"], "additionalProperties": false, "properties": {
   "id": {"type": "string"}, "version": {"type": "integer", "minimum": 1}}}},
{"name": "teardown", "title": "Delete a site",
 "description": "Take a deployment offline for good and free its slug. Its submissions and counters go with it.",
 "call": {"method": "DELETE", "path": "/deploy/{id}"}, "output": "Deleted",
 "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true},
 "input": {"type": "object", "required": ["id"], "additionalProperties": false, "properties": {"id": {"type": "string"}}}},
{"name": "get_submissions", "title": "Form submissions",
 "description": "Form submissions of a site (posts to its /_submit), newest first. Pass next_before as before for the next page.",
 "call": {"method": "GET", "path": "/deploy/{id}/submissions", "query": ["limit", "before"]}, "output": "SubmissionPage",
 "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
 "input": {"type": "object", "required": ["id"], "additionalProperties": false, "properties": {
   "id": {"type": "string"}, "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50},
   "before": {"type": "string"}}}},
{"name": "delete_submission", "title": "Delete a submission", "description": "Delete one form submission.",
 "call": {"method": "DELETE", "path": "/deploy/{id}/submissions/{submission_id}"}, "output": "Deleted",
 "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": false},
 "input": {"type": "object", "required": ["id", "submission_id"], "additionalProperties": false, "properties": {
   "id": {"type": "string"}, "submission_id": {"type": "string"}}}},
{"name": "list_counters", "title": "Counters", "description": "A site's named counters (its /_counter/:name) and their values.",
 "call": {"method": "GET", "path": "/deploy/{id}/counters"}, "output": "CounterList",
 "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
 "input": {"type": "object", "required": ["id"], "additionalProperties": false, "properties": {"id": {"type": "string"}}}},
{"name": "get_analytics", "title": "Site analytics",
 "description": "A site's page views and unique visitors per day, its top pages, referrer hosts and 404 paths, and the bytes sent, counted without cookies or stored addresses. Default: the last 30 days; at most 400.",
 "call": {"method": "GET", "path": "/deploy/{id}/analytics", "query": ["from", "to"]}, "output": "Analytics",
 "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
 "input": {"type": "object", "required": ["id"], "additionalProperties": false, "properties": {
   "id": {"type": "string"},
   "from": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": "First day, YYYY-MM-DD (UTC)."},
   "to": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": "Last day, YYYY-MM-DD (UTC)."}}}},
{"name": "claim", "title": "Claim an agent's sites",
 "description": "Move an agent identity's deployments to this signed-in account (after login and verify), with the agent's claim token.",
 "call": {"method": "POST", "path": "/auth/claim"}, "output": "Claimed",
 "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false},
 "input": {"type": "object", "required": ["claim_token"], "additionalProperties": false, "properties": {
   "claim_token": {"type": "string"}}}},
{"name": "login", "title": "Sign in: mail a code",
 "description": "Start signing in with an email address: a code is mailed (or relayed by the instance's owner). Then call verify.",
 "call": {"method": "POST", "path": "/auth/otp"}, "output": "OtpSent",
 "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true},
 "input": {"type": "object", "required": ["email"], "additionalProperties": false, "properties": {"email": {"type": "string"}}}},
{"name": "verify", "title": "Sign in: enter the code",
 "description": "Finish signing in with the mailed code: this session then acts as that account. With claim_token, the agent's sites move to it.",
 "call": {"method": "POST", "path": "/auth/verify"}, "output": "SignedIn",
 "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false},
 "input": {"type": "object", "required": ["email", "code"], "additionalProperties": false, "properties": {
   "email": {"type": "string"}, "code": {"type": "string"}, "claim_token": {"type": "string"}}}},
{"name": "logout", "title": "Sign out",
 "description": "Forget the account signed in with verify: the session acts again as it did before.",
 "output": "SignedOut",
 "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
 "input": {"type": "object", "properties": {}, "additionalProperties": false}}
])json";
}

} // namespace berth::McpTools
