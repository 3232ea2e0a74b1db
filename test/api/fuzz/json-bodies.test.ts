import { jsonBodies } from "../support/adversarial-bodies";
import { fuzzWithBodies } from "../support/route-fuzzing";

// JSON bodies built to cost a careless reader much more than their size, to every route that takes a body.
fuzzWithBodies(jsonBodies);
