/**
 * The production-density index as the API writes it (spec "Production density"; schemas in src/openapi), read
 * by the tests that check it against the fixture and against a hand-made export.
 */
export interface ProductionBucket {
  year: number;
  weight: number;
  share_pct: number;
  object_count: number;
  exact_count: number;
  spread_factor: number | null;
  filter: string;
}

export interface ProductionDensity {
  '@id': string;
  '@type': string;
  bucket_size: number;
  year_from: number;
  year_to: number;
  total_weight: number;
  buckets: ProductionBucket[];
}
