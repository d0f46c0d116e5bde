/**
 * Fastify's own schema compilers (Ajv for requests, fast-json-stringify for answers), each route's schema
 * compiled when the route is first called instead of when the station starts.
 *
 * Compiling all of the station's ~150 routes took about two thirds of a station's start (1–2 s of CPU:
 * fast-json-stringify checks every schema against the JSON Schema meta-schema, then generates code). A test
 * station calls a handful of routes, and the test suites start hundreds of stations. The station's entry
 * point still compiles every schema before it listens (`app.compileSchemas()`), so a bad schema stops
 * `npm start` at once and no real caller pays for a compilation.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (doc: unknown) => string;

export interface LazySchemas {
  /** For Fastify's `schemaController` option. */
  schemaController: NonNullable<FastifyServerOptions['schemaController']>;
  /** Compiles every schema not compiled yet; throws the first compiler error, naming its route. */
  compileAll(): void;
}

export function lazySchemas(): LazySchemas {
  const pending = new Set<() => void>();
  const buildValidator = AjvCompiler();
  const buildSerializer = SerializerSelector();

  /** `compile` once, on the first call or on compileAll, whichever comes first. */
  function later<F>(compile: () => F, where: string): () => F {
    let compiled: F | undefined;
    const force = () => {
      if (compiled !== undefined) return compiled;
      try {
        compiled = compile();
      } catch (error) {
        throw new Error(`schema of ${where}: ${(error as Error).message}`, { cause: error });
      }
      pending.delete(force);
      return compiled;
    };
    pending.add(force);
    return force;
  }

  const compilersFactory = {
    buildValidator(externalSchemas: unknown, ajvOptions: unknown) {
      const compile = buildValidator(
        externalSchemas as Parameters<typeof buildValidator>[0],
        ajvOptions as Parameters<typeof buildValidator>[1],
      );
      return (route: Parameters<typeof compile>[0]) => {
        const get = later(() => compile(route) as Validate, `${route.method} ${route.url} ${route.httpPart}`);
        // Fastify reads a refused value's errors from the validator function itself (Ajv's convention).
        const validate: Validate = (data) => {
          const inner = get();
          const result = inner(data);
          validate.errors = inner.errors;
          return result;
        };
        return validate;
      };
    },
    buildSerializer(externalSchemas: unknown, serializerOptions: unknown) {
      const compile = buildSerializer(
        externalSchemas,
        serializerOptions as Parameters<typeof buildSerializer>[1],
      );
      return (route: Parameters<typeof compile>[0]) => {
        const get = later(() => compile(route), `${route.method} ${route.url} ${route.httpStatus}`);
        const serialize: Serialize = (doc) => get()(doc);
        return serialize;
      };
    },
  };

  return {
    // Fastify's types ask for Ajv's whole ValidateFunction; Fastify itself calls it and reads `errors`.
    schemaController: { compilersFactory } as unknown as LazySchemas['schemaController'],
    compileAll() {
      for (const force of [...pending]) force();
    },
  };
}
