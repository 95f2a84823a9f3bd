package deskbridge.policies.assets_test

import data.deskbridge.fixtures as f
import rego.v1

downloads := "/home/ann/Downloads"

config := object.union(f.config, {"import_sources": [downloads]})

source := object.union(f.inside_path, {
	"input": "/home/ann/Downloads/logo.png", "canonical": "/home/ann/Downloads/logo.png",
	"workspace": "", "workspace_root": "", "relative": "", "inside": false,
})

destination := object.union(f.inside_path, {"canonical": "/home/ann/Demo/logo.png", "relative": "logo.png", "exists": false, "type": ""})

import_fact := {"source": downloads, "relative": "logo.png", "inside": true}

request(src, imp) := object.union(
	f.request("import_asset", "assets", {"source": src, "destination": destination}),
	{"import": imp},
)

test_import_allowed if {
	d := f.decision with input as request(source, import_fact) with data.config as config
	d.allow
}

test_outside_import_sources_denied if {
	src := object.union(source, {"canonical": "/home/ann/Documents/logo.png"})
	d := f.decision with input as request(src, {"source": "", "relative": "", "inside": false}) with data.config as config
	f.rules(d) == {"assets.outside_import_sources"}
	f.codes(d) == {"ASSET_IMPORT_DENIED"}
}

test_missing_import_fact_denied if {
	inp := f.request("import_asset", "assets", {"source": source, "destination": destination})
	d := f.decision with input as inp with data.config as config
	"assets.outside_import_sources" in f.rules(d)
}

test_import_source_not_configured_denied if {
	d := f.decision with input as request(source, import_fact) with data.config as f.config
	f.rules(d) == {"assets.outside_import_sources"}
}

test_import_source_itself_denied if {
	src := object.union(source, {"canonical": downloads, "type": "folder"})
	d := f.decision with input as request(src, {"source": downloads, "relative": ".", "inside": true}) with data.config as config
	"assets.outside_import_sources" in f.rules(d)
}

test_folder_source_denied if {
	src := object.union(source, {"type": "folder"})
	d := f.decision with input as request(src, import_fact) with data.config as config
	"assets.outside_import_sources" in f.rules(d)
}

test_secret_source_denied_as_import if {
	src := object.union(source, {"canonical": "/home/ann/Downloads/.env", "sensitivity": "secret"})
	d := f.decision with input as request(src, object.union(import_fact, {"relative": ".env"})) with data.config as config
	"assets.sensitive_source" in f.rules(d)
	main_code(d) == "ASSET_IMPORT_DENIED"
}

test_destination_outside_workspace_denied if {
	dst := object.union(destination, {"canonical": "/tmp/logo.png", "inside": false, "workspace": "", "workspace_root": ""})
	inp := object.union(f.request("import_asset", "assets", {"source": source, "destination": dst}), {"import": import_fact})
	d := f.decision with input as inp with data.config as config
	f.rules(d) == {"workspace.outside"}
}

test_other_actions_not_judged if {
	d := f.decision with input as f.request("read_file", "files", {"target": f.inside_path}) with data.config as config
	d.allow
}

# main_code is the code the host answers with: the denial of lowest priority.
main_code(d) := c if {
	lowest := min({x.priority | some x in d.denials})
	some x in d.denials
	x.priority == lowest
	c := x.code
}
