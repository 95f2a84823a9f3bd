# default deny := {} makes deny an object, not a set of denials.
package deskbridge.policies.corp

import rego.v1

default deny := {}
