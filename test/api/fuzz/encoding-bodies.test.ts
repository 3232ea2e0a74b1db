import { encodingBodies } from "../support/adversarial-bodies";
import { fuzzWithBodies } from "../support/route-fuzzing";

// Bodies wrong below their syntax (bytes, size, compression), to every route that takes a body.
fuzzWithBodies(encodingBodies);
