export { detect, describeDetection, codecKind, issuesAs, type Candidate, type Detection, type DetectedKind } from './detect.js';
export { readCapture, readCaptureText, readCaptureValue, looksLikeEventStream, eventsForFraming, type Capture, type Layout } from './capture.js';
