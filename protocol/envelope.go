package protocol

import "github.com/go-json-experiment/json/jsontext"

// Version is the only protocol version this host speaks.
const Version = 1

// MaxIDLength is the longest request id accepted, in characters.
const MaxIDLength = 128

// Request is a decoded, envelope-valid v1 request. Arguments holds the raw
// JSON object; each action decodes it strictly into its own type.
type Request struct {
	Version   int            `json:"version"`
	ID        string         `json:"id"`
	Action    string         `json:"action"`
	Arguments jsontext.Value `json:"arguments"`
}

// Response is a v1 response: Data on success, Error on failure.
type Response struct {
	Version int        `json:"version"`
	ID      string     `json:"id"`
	Success bool       `json:"success"`
	Data    any        `json:"data,omitempty"`
	Error   *ErrorBody `json:"error,omitempty"`
}

// ErrorBody is the error member of a failed response.
type ErrorBody struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Rule names the policy rule that decided a denial, when one did.
	Rule string `json:"rule,omitempty"`
}

// Success returns a successful response for id carrying data.
func Success(id string, data any) *Response {
	return &Response{Version: Version, ID: id, Success: true, Data: data}
}

// Failure returns a failed response for id carrying e.
func Failure(id string, e *Error) *Response {
	return &Response{Version: Version, ID: id, Error: &ErrorBody{Code: e.Code, Message: e.Message, Rule: e.Rule}}
}
