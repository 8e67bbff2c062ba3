// Rules are registered here, sorted by id. Each lives in its own file with its test and its doc.
export const rules = {};
