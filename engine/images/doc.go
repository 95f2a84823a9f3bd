// Package images holds the images skill's actions (inspect_image,
// resize_image, compress_image, convert_image): their argument types,
// facts and run functions, registered with package action in init. The
// pixel work runs in the confined workers of sandbox/worker (the jobs
// image_worker.go registers); the bytes are read and written here,
// after the decision, through the workspace's root.
package images
