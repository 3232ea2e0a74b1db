import { z } from "zod";
import { ApiError, type ProblemBody, problemBody, problemCodes } from "../../shared/problems";

/** The `type` URI of each problem code, as answers carry it. */
const problemTypes = problemCodes.map((code) => problemBody(new ApiError(code, "")).type);

/** The body of every error answer (RFC 9457), as `problemBody` writes it. */
export const problemSchema = z
  .strictObject({
    type: z.enum(problemTypes).meta({ description: "The kind of error; clients branch on its last part, the code." }),
    title: z.string().meta({ description: "A fixed summary of the code." }),
    status: z.int().min(400).max(599).meta({ description: "The HTTP status, repeated." }),
    detail: z.string().meta({ description: "What went wrong in this request." }),
    errors: z
      .array(
        z.strictObject({
          path: z.string().meta({
            description:
              'A JSON pointer (RFC 6901) into the body ("" is the whole body), or the path parameter\'s name (/id).',
          }),
          message: z.string(),
        }),
      )
      .min(1)
      .optional()
      .meta({ description: "One entry per problem, present when there are problems to point at." }),
  })
  .meta({
    id: "Problem",
    description: "Problem details (RFC 9457): the shape of every error answer.",
  }) satisfies z.ZodType<ProblemBody>;
