// Package protocol holds the DeskBridge v1 wire contract: the stable error
// codes, the request and response envelopes, and the whitelist of actions.
//
// It is the vocabulary every other package speaks; it performs no I/O.
package protocol

import "fmt"

// Code is a stable v1 error code. The set is closed: exactly the 29 codes below.
type Code string

// The 29 stable v1 error codes (docs/protocol.md, "Error codes").
const (
	InvalidRequest            Code = "INVALID_REQUEST"
	UnknownAction             Code = "UNKNOWN_ACTION"
	ActionNotAllowed          Code = "ACTION_NOT_ALLOWED"
	PermissionDenied          Code = "PERMISSION_DENIED"
	WorkspaceViolation        Code = "WORKSPACE_VIOLATION"
	FileNotFound              Code = "FILE_NOT_FOUND"
	FileAlreadyExists         Code = "FILE_ALREADY_EXISTS"
	AppNotFound               Code = "APP_NOT_FOUND"
	CommandNotAllowed         Code = "COMMAND_NOT_ALLOWED"
	CommandTimeout            Code = "COMMAND_TIMEOUT"
	ExecutionFailed           Code = "EXECUTION_FAILED"
	InternalError             Code = "INTERNAL_ERROR"
	InvalidURL                Code = "INVALID_URL"
	UnsupportedProtocol       Code = "UNSUPPORTED_PROTOCOL"
	PrivateNetworkBlocked     Code = "PRIVATE_NETWORK_BLOCKED"
	DownloadTooLarge          Code = "DOWNLOAD_TOO_LARGE"
	DownloadTimeout           Code = "DOWNLOAD_TIMEOUT"
	InvalidContentType        Code = "INVALID_CONTENT_TYPE"
	UnsupportedImageFormat    Code = "UNSUPPORTED_IMAGE_FORMAT"
	ImageProcessingFailed     Code = "IMAGE_PROCESSING_FAILED"
	PatchTargetNotFound       Code = "PATCH_TARGET_NOT_FOUND"
	PatchTargetNotUnique      Code = "PATCH_TARGET_NOT_UNIQUE"
	ProjectPathInvalid        Code = "PROJECT_PATH_INVALID"
	AssetImportDenied         Code = "ASSET_IMPORT_DENIED"
	SkillDisabled             Code = "SKILL_DISABLED"
	SkillRuntimeUnavailable   Code = "SKILL_RUNTIME_UNAVAILABLE"
	UnsupportedDocumentFormat Code = "UNSUPPORTED_DOCUMENT_FORMAT"
	DocumentConversionFailed  Code = "DOCUMENT_CONVERSION_FAILED"
	DocumentOCRRequired       Code = "DOCUMENT_OCR_REQUIRED"
)

// Codes lists every v1 error code in the order of the specification.
var Codes = []Code{
	InvalidRequest, UnknownAction, ActionNotAllowed, PermissionDenied,
	WorkspaceViolation, FileNotFound, FileAlreadyExists, AppNotFound,
	CommandNotAllowed, CommandTimeout, ExecutionFailed, InternalError,
	InvalidURL, UnsupportedProtocol, PrivateNetworkBlocked, DownloadTooLarge,
	DownloadTimeout, InvalidContentType, UnsupportedImageFormat,
	ImageProcessingFailed, PatchTargetNotFound, PatchTargetNotUnique,
	ProjectPathInvalid, AssetImportDenied, SkillDisabled,
	SkillRuntimeUnavailable, UnsupportedDocumentFormat,
	DocumentConversionFailed, DocumentOCRRequired,
}

// Valid reports whether c is one of the 29 v1 codes.
func (c Code) Valid() bool {
	for _, k := range Codes {
		if k == c {
			return true
		}
	}
	return false
}

// Error is a failure that the host answers with: a stable code and a
// one-sentence message that tells a person how to recover.
//
// Message is shown to the extension; it never holds a Go error string, a
// stack trace or file contents. Rule names the policy rule that decided a
// denial, if any. Err is the underlying cause, kept for the host log only.
type Error struct {
	Code    Code
	Message string
	Rule    string
	Err     error
}

// Error implements error with the code and the message.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error with code and message that keeps cause for the log.
func Wrap(code Code, cause error, message string) *Error {
	return &Error{Code: code, Message: message, Err: cause}
}
