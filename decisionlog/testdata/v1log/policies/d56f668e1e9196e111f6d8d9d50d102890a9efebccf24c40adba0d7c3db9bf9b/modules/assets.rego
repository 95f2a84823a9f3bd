# Assets: import_asset copies only files that lie inside an allowed import
# location (the configuration's import_sources, canonical) after symlinks
# are resolved, and never a secret. input.import names the import source
# that contains the canonical source path (docs/policy-input.md, ## import).
package deskbridge.policies.builtin

import rego.v1

deny contains {
	"code": "ASSET_IMPORT_DENIED",
	"rule": "assets.outside_import_sources",
	"message": "The source is not inside an allowed import location (the configuration's import_sources); copy it there first or ask for the folder to be added.",
	"priority": 30,
} if {
	input.request.action == "import_asset"
	not in_import_source
}

deny contains {
	"code": "ASSET_IMPORT_DENIED",
	"rule": "assets.sensitive_source",
	"message": "The source looks like a secret (a key, credential or environment file), which DeskBridge does not import; copy what you need by hand.",
	"priority": 30,
} if {
	input.request.action == "import_asset"
	input.paths.source.sensitivity == "secret"
}

default import_sources := []

import_sources := data.config.import_sources

# The source lies in a configured import source: the host's fact says
# which one, and that folder must be one the configuration lists.
in_import_source if {
	input["import"].inside == true
	input["import"].source in import_sources
	input["import"].relative != "."
	input.paths.source.type == "file"
}
