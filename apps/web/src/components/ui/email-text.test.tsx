import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailText, TextWithEmails } from './email-text';

describe('an e-mail in a narrow column', () => {
  it('may break only before its "@" and before its dots, and reads as the address', () => {
    const { container } = render(<EmailText email="site.admin@qa3.example.com" />);
    expect(container.textContent).toBe('site.admin@qa3.example.com');
    expect(container.innerHTML).toBe('site<wbr>.admin<wbr>@qa3<wbr>.example<wbr>.com');
  });
});

describe('a sentence naming someone by e-mail', () => {
  it('breaks the address as an e-mail and leaves the words around it alone', () => {
    const { container } = render(<TextWithEmails text="site.admin@qa3.example assigned you 'Pour slab.'" />);
    expect(container.textContent).toBe("site.admin@qa3.example assigned you 'Pour slab.'");
    expect(container.innerHTML).toBe("site<wbr>.admin<wbr>@qa3<wbr>.example assigned you 'Pour slab.'");
  });
});
