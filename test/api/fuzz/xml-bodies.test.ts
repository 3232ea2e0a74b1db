import { xmlBodies } from "../support/adversarial-bodies";
import { fuzzWithBodies } from "../support/route-fuzzing";

// XML bodies built to cost a careless reader much more than their size, to every route that takes a body.
fuzzWithBodies(xmlBodies);
