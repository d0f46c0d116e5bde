/** Reads the station's OpenAPI document: each operation's query and body fields with their schemas. */
import type { ApiClient } from './station';

export interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
}

export interface Operation {
  method: 'GET' | 'POST';
  path: string;
  query: Record<string, FieldSchema>;
  body: Record<string, FieldSchema> | null;
  /** The request body is raw bytes (e.g. image/png), not fields. */
  rawBody: boolean;
  required: string[];
}

interface Doc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; required?: boolean; schema?: FieldSchema }[];
        requestBody?: {
          content?: Record<
            string,
            { schema?: { properties?: Record<string, FieldSchema>; required?: string[] } }
          >;
        };
      }
    >
  >;
}

export async function operations(client: ApiClient): Promise<Operation[]> {
  const res = await client.raw('/docs/json');
  const doc = (await res.json()) as Doc;
  const result: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [methodRaw, op] of Object.entries(methods)) {
      const method = methodRaw.toUpperCase();
      if (method !== 'GET' && method !== 'POST') continue;
      const query: Record<string, FieldSchema> = {};
      const required: string[] = [];
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        query[p.name] = p.schema ?? {};
        if (p.required) required.push(p.name);
      }
      const content = op.requestBody?.content ?? {};
      const form = content['application/x-www-form-urlencoded'] ?? content['application/json'];
      const rawBody =
        !form && Object.keys(content).some((type) => !type.includes('json') && !type.includes('form'));
      const body = form?.schema?.properties ?? (method === 'POST' && !rawBody ? {} : null);
      required.push(...(form?.schema?.required ?? []));
      result.push({ method, path, query, body, rawBody, required });
    }
  }
  return result;
}

/** A plausible value for a field: its default or first enum value, else something within its bounds. */
export function plausible(
  name: string,
  schema: FieldSchema,
  ids: { requestId: () => string },
): string | number {
  if (schema.default !== undefined) return schema.default as string | number;
  if (schema.enum && schema.enum.length > 0) return schema.enum.find((v) => v !== null) as string | number;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return Math.max(1, schema.minimum ?? 1);
  if (/requestId/i.test(name)) return ids.requestId();
  if (/phone/i.test(name)) return '13800000000';
  if (/code$/i.test(name)) return '600519';
  if (/password|pwd/i.test(name)) return '123456';
  return 'a'.repeat(Math.max(1, schema.minLength ?? 1));
}
