// Package assets holds the assets skill's actions (download_asset,
// import_asset): their argument types, facts (the URL judged in two
// decisions, the destination and its input.write) and run functions,
// registered with package action in init.
package assets
