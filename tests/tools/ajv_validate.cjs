// Validates YAML-loaded content with Ajv (JSON Schema draft 2020-12) in strict mode, as an
// independent check of Ludex's schemas. Reads {"schemas": {name: schema}, "instances":
// [{"name", "schema", "data"}]} on stdin; prints [{"name", "valid", "errors"}] on stdout.
// A schema that strict Ajv refuses to compile is reported for every instance using it.
const Ajv2020 = require("ajv/dist/2020");

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const compiled = {};
  const results = [];
  for (const item of job.instances) {
    if (!(item.schema in compiled)) {
      // Strict in every respect but one: union types (`"type": ["integer", "string"]`) are
      // plain JSON Schema, which Ajv only asks to be allowed explicitly.
      const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
      try {
        compiled[item.schema] = { validate: ajv.compile(job.schemas[item.schema]) };
      } catch (error) {
        compiled[item.schema] = { error: String(error.message || error) };
      }
    }
    const entry = compiled[item.schema];
    if (entry.error) {
      results.push({ name: item.name, valid: false, errors: ["schema: " + entry.error] });
      continue;
    }
    const valid = entry.validate(item.data);
    const errors = valid ? [] : entry.validate.errors.map(
      (e) => `${e.instancePath} ${e.message}`);
    results.push({ name: item.name, valid, errors });
  }
  process.stdout.write(JSON.stringify(results));
});
