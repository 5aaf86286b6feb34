from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from cases.selectors import case_list_for_user


@login_required
def case_list(request: HttpRequest) -> HttpResponse:
    cases = case_list_for_user(user=request.user)
    return render(request, "cases/case_list.html", {"cases": cases})
