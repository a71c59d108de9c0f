declare module 'unicode-confusables' {
  export function rectifyConfusion(input: string): string;
  export function isConfusing(input: string): boolean;
}
